import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('npm run demo', () => {
  test('keel fixes the greeting against the scripted model, shows the diff and leaves nothing behind', {
    timeout: 120_000,
  }, async () => {
    // A private TMPDIR shows what the demo leaves; PATH as `npm run` gives it (the workspace's bin first).
    const tmp = await mkdtemp(join(tmpdir(), 'keel-demo-test-'));
    try {
      const child = spawn(process.execPath, [join(root, 'scripts', 'demo.ts')], {
        cwd: root,
        env: {
          PATH: [join(root, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter),
          HOME: tmp,
          TMPDIR: tmp,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (out += chunk));
      const [code] = await once(child, 'exit');
      expect(code, out).toBe(0);
      expect(out).toContain('$ git diff');
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the demo's edit writes a template literal.
      expect(out).toContain('+  return `Hello, ${name}!`;');
      // Node's compile cache (keel's bin turns it on) is a cache, kept on purpose; nothing else may stay.
      expect((await readdir(tmp)).filter((name) => name !== 'node-compile-cache')).toEqual([]);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  });
});
