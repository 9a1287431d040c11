import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ChatRequestBody, createTempDir, pathWithout } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { keel, startKeel, waitFor } from './keel-process.ts';
import { scenario } from './scenario.ts';

const exec = (command: string) => ({ toolCalls: [{ name: 'exec_command', arguments: { command } }] });

/** The tool result the model was sent for its last call. */
function lastToolResult(requests: readonly ChatRequestBody[]): string {
  const messages = requests.at(-1)?.messages ?? [];
  const tool = messages.filter((message) => message.role === 'tool').at(-1);
  return String(tool?.content);
}

describe('keel on a machine with no sandbox backend (no bubblewrap)', () => {
  test('says so at start; reads run, a command that writes waits for approval; approved, it runs', async () => {
    await using bin = await createTempDir();
    await using s = await scenario([exec('cat notes.txt'), exec('mkdir made'), { text: 'Made it.' }], {
      files: { 'notes.txt': 'read me\n' },
    });
    const env = { ...s.env, PATH: await pathWithout(['bwrap'], bin.path) };
    const running = startKeel(['run', 'read the notes, then make a file', '-w', s.repo.path], env);
    const approvalId = await waitFor(
      () => running.output.stderr.match(/keel approvals approve (apr_\w+)/)?.[1],
    );

    expect(running.output.stderr).toContain('Note: No sandbox: bwrap is not installed');
    expect(running.output.stderr).toContain('apt-get install bubblewrap');
    // The read ran without asking; the write asks, saying why.
    expect(lastToolResult(s.model.chatRequests)).toContain('read me');
    expect(running.output.stderr).toContain(
      '? Allow exec_command {"command":"mkdir made"}? (the command runs mkdir, which is not known to only read, and no sandbox confines commands on this machine)',
    );
    expect(existsSync(join(s.repo.path, 'made'))).toBe(false);

    running.child.kill('SIGKILL');
    await running.done;
    const approved = await keel(['approvals', 'approve', approvalId, '-w', s.repo.path], env);
    expect(approved.stderr).not.toContain('Error');
    expect(approved.stdout).toBe('Made it.\n');
    expect(existsSync(join(s.repo.path, 'made'))).toBe(true);
  });

  test('a read outside the working directory asks too, and a rejection reaches the model', async () => {
    await using bin = await createTempDir();
    await using s = await scenario([exec('cat ../secret.txt'), { text: 'Could not read it.' }]);
    await writeFile(join(s.repo.path, '..', 'secret.txt'), 'the secret\n');
    const env = { ...s.env, PATH: await pathWithout(['bwrap'], bin.path) };
    const running = startKeel(['run', 'read ../secret.txt', '-w', s.repo.path], env);
    const approvalId = await waitFor(
      () => running.output.stderr.match(/keel approvals reject (apr_\w+)/)?.[1],
    );
    expect(running.output.stderr).toContain("reads '../secret.txt', outside the working directory");

    const rejected = await keel(['approvals', 'reject', approvalId, '--reason', 'not yours'], env);
    expect(rejected.code).toBe(0);
    const { code } = await running.done;
    expect(code).toBe(0);
    expect(lastToolResult(s.model.chatRequests)).toBe('Not run: the user rejected this call (not yours).');
    expect(JSON.stringify(s.model.chatRequests)).not.toContain('the secret');
  });

  test('with the sandbox turned off on purpose, commands run unconfined without a note', async () => {
    await using bin = await createTempDir();
    await using s = await scenario([exec('mkdir made'), { text: 'Made it.' }]);
    await writeFile(join(s.home, 'config.json'), JSON.stringify({ sandbox: { enabled: false } }));
    const env = { ...s.env, PATH: await pathWithout(['bwrap'], bin.path) };
    const done = await keel(['run', 'make a file', '-w', s.repo.path], env);
    expect(done.stderr).not.toContain('Note: No sandbox');
    expect(done.stderr).not.toContain('? Allow');
    expect(done.stdout).toBe('Made it.\n');
    expect(existsSync(join(s.repo.path, 'made'))).toBe(true);
  });
});
