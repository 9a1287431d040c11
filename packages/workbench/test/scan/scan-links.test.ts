// Issue #36, item 3: the scan of a repository names its symbolic links and never reads or walks through
// one, in a git repository and in a plain folder alike.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTempDir, createTempGitRepo } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { scanRepository, scanToMarkdown } from '../../src/scan/index.ts';

const marker = 'SECRET-LINE-4be1';

async function secretFolder() {
  const outside = await createTempDir();
  writeFileSync(join(outside.path, 'id_ed25519'), `${marker}\nmodule ${marker}\n`);
  writeFileSync(join(outside.path, 'requirements.txt'), `${marker}==1\n`);
  writeFileSync(join(outside.path, 'app.py'), 'print(1)\n');
  return outside;
}

describe('scanRepository over links', () => {
  test('a git repository: linked manifests and folders are named, not read; paths beneath a link dropped', async () => {
    await using outside = await secretFolder();
    await using repo = await createTempGitRepo({
      files: { 'src/index.ts': 'export {};\n', 'pkg/requirements.txt': 'flask\n' },
    });
    symlinkSync(join(outside.path, 'id_ed25519'), join(repo.path, 'requirements.txt'));
    symlinkSync(join(outside.path, 'id_ed25519'), join(repo.path, 'go.mod'));
    symlinkSync(outside.path, join(repo.path, 'docs'));
    await repo.git('add', '-A');
    await repo.git('commit', '-q', '-m', 'links');
    // The index still lists pkg/requirements.txt once the working tree's pkg is a link.
    rmSync(join(repo.path, 'pkg'), { recursive: true });
    symlinkSync(outside.path, join(repo.path, 'pkg'));

    const scan = await scanRepository(repo.path);
    expect(scan.links).toEqual(['docs', 'go.mod', 'pkg', 'requirements.txt']);
    expect(scan.manifests).toEqual([]);
    expect(scan.files_total).toBe(1);
    expect(scan.tree).toBe(
      [
        'src/ (1 file)',
        '  index.ts',
        'docs -> (link, not read)',
        'go.mod -> (link, not read)',
        'pkg -> (link, not read)',
        'requirements.txt -> (link, not read)',
      ].join('\n'),
    );
    const markdown = scanToMarkdown(scan);
    expect(markdown).toContain('## Symbolic links');
    expect(markdown).toContain('- `requirements.txt` -> (link, not read)');
    expect(markdown).not.toContain(marker);
    expect(markdown).not.toContain('app.py');
  });

  test('a plain folder: links are listed, never followed, even to / or a folder above', async () => {
    await using outside = await secretFolder();
    await using dir = await createTempDir();
    mkdirSync(join(dir.path, 'src'));
    writeFileSync(join(dir.path, 'src', 'main.py'), 'print(1)\n');
    symlinkSync('/', join(dir.path, 'root'));
    symlinkSync('..', join(dir.path, 'src', 'up'));
    symlinkSync(join(outside.path, 'requirements.txt'), join(dir.path, 'requirements.txt'));
    const scan = await scanRepository(dir.path);
    expect(scan.links).toEqual(['requirements.txt', 'root', 'src/up']);
    expect(scan.files_total).toBe(1);
    expect(scan.manifests).toEqual([]);
    expect(scanToMarkdown(scan)).not.toContain(marker);
  });
});
