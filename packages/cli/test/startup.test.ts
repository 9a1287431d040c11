// What keeps `keel` quick to start (issue #44; bench/startup.ts measures it): the `--version` shortcut of
// bin/keel.js. Needs the bundle (npx node scripts/build.ts --package cli).
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const keelBin = fileURLToPath(new URL('../bin/keel.js', import.meta.url));

test('keel --version answers without loading the program', async () => {
  // A resolve hook in the child reports every module of bundle/ it loads.
  const hook = `import { registerHooks } from 'node:module';
registerHooks({ resolve(specifier, context, next) {
  const resolved = next(specifier, context);
  if (resolved.url.includes('/bundle/')) process._rawDebug('loaded ' + resolved.url);
  return resolved;
} });`;
  const run = (args: string[]) =>
    new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['--import', `data:text/javascript,${encodeURIComponent(hook)}`, keelBin, ...args],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve({ stdout, stderr }) : reject(new Error(stderr))));
    });
  const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  for (const flag of ['--version', '-V']) {
    const out = await run([flag]);
    expect(out.stdout).toBe(`${version}\n`);
    expect(out.stderr).not.toContain('loaded');
  }
  // The hook does see the bundle when the program runs.
  expect((await run(['--help'])).stderr).toContain('bundle/main.js');
});
