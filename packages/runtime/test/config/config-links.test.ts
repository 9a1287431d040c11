// A repository's `.runtime/config.json` that is a link to a secret (issue #36, item 3, found in the runtime's
// own read): the file is not read through a link leading out of the project, and no error message quotes
// the text of a file that is not JSON.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { tempDir } from '../tools/helpers.ts';

const secret = 'KEELSECRET-ssh-private-key-line';

describe('a project config file that is a link or not JSON', () => {
  it('is not read through a link leading out of the project, and says so without its text', async () => {
    await using outside = await tempDir('keel-secret-');
    await using project = await tempDir('keel-project-');
    await using home = await tempDir('keel-home-');
    await writeFile(join(outside.path, 'id_ed25519'), `${secret}\n`);
    await mkdir(join(project.path, '.runtime'));
    await symlink(join(outside.path, 'id_ed25519'), join(project.path, '.runtime/config.json'));
    const error = (() => {
      try {
        loadConfig(home.path, project.path);
        return undefined;
      } catch (caught) {
        return caught as Error & { code: string; details: Record<string, unknown> };
      }
    })();
    expect(error?.code).toBe('CONFIG_ERROR');
    expect(error?.details.reason).toBe('link_outside_project');
    expect(error?.message).toContain('is a link to a file outside the project');
    expect(JSON.stringify({ message: error?.message, details: error?.details })).not.toContain('KEELSECRET');
  });

  it('reads a link that stays inside the project', async () => {
    await using project = await tempDir('keel-project-');
    await using home = await tempDir('keel-home-');
    await mkdir(join(project.path, 'settings'));
    await writeFile(join(project.path, 'settings/keel.json'), '{"model": "inside"}\n');
    await symlink('settings', join(project.path, '.runtime'));
    await symlink('keel.json', join(project.path, 'settings/config.json'));
    expect(loadConfig(home.path, project.path).model).toBe('inside');
  });

  it('names where a file stopped being JSON, never its text', async () => {
    await using project = await tempDir('keel-project-');
    await using home = await tempDir('keel-home-');
    await mkdir(join(project.path, '.runtime'));
    await writeFile(join(project.path, '.runtime/config.json'), `${secret}\n`);
    expect(() => loadConfig(home.path, project.path)).toThrow(/is not valid JSON/);
    try {
      loadConfig(home.path, project.path);
    } catch (error) {
      expect((error as Error).message).not.toContain('KEELSECRET');
    }
    await writeFile(join(project.path, '.runtime/config.json'), '{"model": "x" "y"}');
    expect(() => loadConfig(home.path, project.path)).toThrow(/not valid JSON \(at position \d+/);
  });
});
