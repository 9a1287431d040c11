// GET /api/tasks/{id}/diff/file: one file's patch for the review screen, when the task diff's patch is cut
// at 1 MiB before it. Against a real task workspace (a real git repository): the file's patch is its section
// of the task diff byte for byte, also past the cut and for a rename; a path outside the diff's files (`..`,
// absolute, a pathspec pattern, an unchanged file) is refused before git reads it as a pathspec.
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  type Body,
  planningScript,
  repoWithRemote,
  startWorkbench,
  taskInCoding,
  tempDir,
} from '../harness.ts';

/** ~1.1 KB of patch per file: 1,200 of them go past the 1 MiB cut. */
const bigContent = (index: number) =>
  `${Array.from({ length: 20 }, (_, line) => `file ${index} line ${line} `.padEnd(49, '.')).join('\n')}\n`;
const path = (index: number) => `gen/f-${String(index).padStart(4, '0')}.txt`;
const fileCount = 1200;

/** The `diff --git` section of `file` in a patch (the task diff's), or '' when it is not there. */
function section(patch: string, file: string): string {
  const start = patch.indexOf(`diff --git a/${file} `);
  if (start < 0) return '';
  const next = patch.indexOf('\ndiff --git ', start);
  return patch.slice(start, next < 0 ? patch.length : next + 1);
}

describe('one file of the task diff', () => {
  test('past the cut, inside it and renamed: its patch; hostile or unknown paths refused', {
    timeout: 90_000,
  }, async () => {
    const root = tempDir('file-diff');
    const story = `${Array.from({ length: 12 }, (_, line) => `line ${line} of the story`).join('\n')}\n`;
    const repo = repoWithRemote(root, 'app', { 'a.txt': 'a\n', 'story.txt': story });
    writeFileSync(join(root, 'outside.txt'), 'secret\n');
    await using wb = await startWorkbench(planningScript(1, ['one']));
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
    const workspace = join(task.work_dir, 'app');
    mkdirSync(join(workspace, 'gen'));
    for (let index = 0; index < fileCount; index++)
      writeFileSync(join(workspace, path(index)), bigContent(index));
    renameSync(join(workspace, 'story.txt'), join(workspace, 'tale.txt'));
    writeFileSync(join(workspace, 'star*.txt'), 'a star in the name\n');

    const diff = (await api('GET', `/api/tasks/${task.id}/diff`)).body;
    const repository = diff.repositories[0] as Body;
    expect(repository.repository).toBe('app');
    expect(repository.truncated).toBe(true);
    expect(repository.files).toHaveLength(fileCount + 2);
    const file = (query: string) => api('GET', `/api/tasks/${task.id}/diff/file?${query}`);
    const of = (name: string) =>
      file(`repository=app&path=${encodeURIComponent(name)}`) as Promise<{ status: number; body: Body }>;

    // Inside the cut: the same bytes as the task diff's section.
    const first = await of(path(0));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      repository: 'app',
      path: path(0),
      patch: section(repository.patch, path(0)),
      truncated: false,
    });
    expect(first.body.patch).toContain('+file 0 line 19 ');

    // Past the cut: not in the task diff's patch, served here; it is what git says for that file.
    const last = path(fileCount - 1);
    expect(section(repository.patch, last)).toBe('');
    const past = await of(last);
    expect(past.status).toBe(200);
    expect(past.body.truncated).toBe(false);
    expect(past.body.patch).toMatch(new RegExp(`^diff --git a/${last} b/${last}\nnew file mode 100644\n`));
    expect(past.body.patch).toContain(`+file ${fileCount - 1} line 19 `);
    expect(past.body.patch.match(/^diff --git /gm)).toHaveLength(1);

    // A rename: both paths, one section, as the task diff shows it; a `*` in a name is a name.
    const renamed = await of('tale.txt');
    expect(renamed.status).toBe(200);
    expect(renamed.body.patch).toContain('rename from story.txt\nrename to tale.txt');
    const star = await of('star*.txt');
    expect(star.status).toBe(200);
    expect(star.body.patch).toContain('+a star in the name');
    expect(star.body.patch.match(/^diff --git /gm)).toHaveLength(1);

    // Hostile and unknown paths: refused before git reads them, nothing of the outside file in any answer.
    for (const hostile of [
      '../outside.txt',
      'gen/../../outside.txt',
      join(root, 'outside.txt'),
      '/etc/passwd',
      './a.txt',
      'a.txt', // unchanged: not one of the diff's files
      '*.txt', // a pattern matching changed files is not a file of the diff
      ':(glob)**',
      'gen',
      'gen/',
    ]) {
      const refused = await of(hostile);
      expect(refused.status, hostile).toBe(400);
      expect(refused.body.error.code, hostile).toBe('INVALID_PARAMS');
      expect(JSON.stringify(refused.body), hostile).not.toContain('secret');
    }
    const unknown = await file(`repository=other&path=${encodeURIComponent(path(0))}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const noTask = await api('GET', `/api/tasks/no-such-task/diff/file?repository=app&path=a.txt`);
    expect(noTask.status).toBe(404);
    for (const query of ['repository=app', `path=${path(0)}`, '', 'repository=app&path=']) {
      const missing = await file(query);
      expect(missing.status, query).toBe(400);
      expect(missing.body.error.code, query).toBe('INVALID_PARAMS');
    }
    // The workspace's own index was never touched.
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: workspace, encoding: 'utf8' })).toContain(
      '?? gen/',
    );
  });
});
