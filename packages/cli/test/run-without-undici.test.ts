// What keeps `keel run` quick to its first model request (issue #44): it never loads undici, the
// implementation of Node's global fetch, Headers and Response, which costs 18-32 ms with what it drags in
// (tls, http2, zlib, perf_hooks, web streams). Needs the bundle (npx node scripts/build.ts --package cli).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempGitRepo, startMockModel } from '@keel/testkit';
import { expect, test } from 'vitest';

const keelBin = fileURLToPath(new URL('../bin/keel.js', import.meta.url));

/** Prints, as the process exits, every built-in module it loaded. */
const reporter = `import { writeSync } from 'node:fs';
process.on('exit', () => writeSync(2, '\\nloaded=' + JSON.stringify(process.moduleLoadList) + '\\n'));`;

test('a run with a tool call streams its turns without loading undici', async () => {
  await using model = await startMockModel({
    script: [{ toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] }, { text: 'Read it.' }],
  });
  const repo = await createTempGitRepo({ files: { 'notes.txt': 'hello' } });
  const home = await mkdtemp(join(tmpdir(), 'keel-cli-home-'));
  try {
    const args = [
      'run',
      'read notes.txt',
      '--workdir',
      repo.path,
      '--model',
      'mock-model',
      '--model-base-url',
      model.url,
    ];
    const child = spawn(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(reporter)}`, keelBin, ...args],
      {
        env: { PATH: process.env.PATH ?? '', HOME: home, RUNTIME_HOME: home, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('Read it.');
    expect(model.requests).toHaveLength(2);
    const loaded = JSON.parse(/^loaded=(.*)$/m.exec(stderr)?.[1] ?? '[]') as string[];
    // The reporter saw the run: the model client's modules are there.
    expect(loaded).toContain('NativeModule _http_client');
    expect(loaded.filter((name) => name.includes('undici'))).toEqual([]);
  } finally {
    await repo.remove();
    await rm(home, { recursive: true, force: true });
  }
});
