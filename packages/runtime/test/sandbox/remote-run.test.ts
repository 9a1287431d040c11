// The "done when": a real edit-and-test task, run by the runtime with sandbox.backend "remote",
// through the reference server. The model is scripted; the files, the commands and the sync are real.
import { readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ScriptedReply, startRemoteSandboxServer } from '@keel/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteSandbox } from '../../src/sandbox/index.ts';
import { startHarness } from '../harness.ts';

const tokenVariable = 'KEEL_TEST_REMOTE_SANDBOX_TOKEN';
afterEach(() => {
  delete process.env[tokenVariable];
});

const files = {
  'src/add.js': 'export function add(a, b) {\n  return a - b;\n}\n',
  // Passes only where the fix has arrived: it runs in the remote sandbox, so the edit made here must have
  // been synced there first.
  'test/add.test.js':
    "import { add } from '../src/add.js';\n" +
    'if (add(2, 3) !== 5) { console.error("add(2, 3) is " + add(2, 3) + ", not 5"); process.exit(1); }\n' +
    "console.log('add: 1 passed');\n",
  'package.json': '{ "type": "module" }\n',
};

const script: ScriptedReply[] = [
  { toolCalls: [{ name: 'exec_command', arguments: { command: 'node test/add.test.js' } }] },
  {
    when: { lastMessageIncludes: 'not 5' },
    toolCalls: [
      { name: 'edit_file', arguments: { path: 'src/add.js', old_text: 'a - b', new_text: 'a + b' } },
    ],
  },
  {
    when: { lastRole: 'tool' },
    toolCalls: [{ name: 'exec_command', arguments: { command: 'node test/add.test.js' } }],
  },
  {
    when: { lastMessageIncludes: '1 passed' },
    toolCalls: [
      {
        name: 'exec_command',
        arguments: { command: 'mkdir -p reports && node test/add.test.js > reports/test.txt && pwd' },
      },
    ],
  },
  { when: { lastRole: 'tool' }, text: 'Fixed add(); the test passes and its report is in reports/test.txt.' },
];

describe('an edit-and-test task in the remote sandbox', () => {
  it('edits here, tests there, and the files the command wrote come back', async () => {
    await using server = await startRemoteSandboxServer({ token: 'run-token' });
    process.env[tokenVariable] = 'run-token';
    await using h = await startHarness(script, files);
    await writeFile(
      join(h.runtimeDir, 'config.json'),
      JSON.stringify({
        sandbox: { backend: 'remote', remote: { url: server.url, token_env: tokenVariable } },
      }),
    );

    const { result, error, events } = await h.collect({ prompt: 'Fix add() so its test passes.' });
    expect(error).toBeUndefined();
    expect(result?.output).toBe('Fixed add(); the test passes and its report is in reports/test.txt.');
    const results = events.flatMap((event) =>
      event.type === 'tool_result' ? [`${event.tool_name}: ${event.result}`] : [],
    );
    expect(results).toEqual([
      expect.stringMatching(/^exec_command: add\(2, 3\) is -1, not 5\n\nExit code: 1$/),
      expect.stringMatching(/^edit_file: /),
      'exec_command: add: 1 passed\n\nExit code: 0',
      expect.stringMatching(/^exec_command: .*\/sbx_[0-9a-f]+\/work\n\nExit code: 0$/),
    ]);
    // The commands ran in the one remote sandbox, not here.
    const [sandbox, ...others] = server.sandboxes();
    expect(others).toEqual([]);
    expect(results[3]).toContain(sandbox?.workdir);
    expect(server.requests.filter((request) => request.path.endsWith('/exec'))).toHaveLength(3);
    // The fix went up, the report came down.
    expect(await readFile(join(sandbox!.workdir, 'src/add.js'), 'utf8')).toContain('a + b');
    expect(await readFile(join(h.workdir, 'reports/test.txt'), 'utf8')).toBe('add: 1 passed\n');
    // The repository's .git stayed here.
    await expect(readFile(join(sandbox!.workdir, '.git/HEAD'), 'utf8')).rejects.toThrow();
    // Where the client remembered this workdir's sandbox (in the temp dir): not left behind.
    const remembered = new RemoteSandbox({ url: server.url, network: false }).statePath(
      await realpath(h.workdir),
    );
    expect(JSON.parse(await readFile(remembered, 'utf8'))).toMatchObject({ sandbox_id: sandbox?.id });
    await rm(remembered);
  });
});
