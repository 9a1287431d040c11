// `POST /api/projects/{id}/init` end to end: the scripted model writes the guide through an agent run,
// which the real `keel` command then lists like any other run.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

const keelBin = join(import.meta.dirname, '..', '..', 'cli', 'bin', 'keel.js');

async function keel(args: string[], env: Record<string, string>) {
  const { stdout } = await promisify(execFile)(process.execPath, [keelBin, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env },
  });
  return stdout;
}

describe('POST /api/projects/{project_id}/init', () => {
  test('writes AGENTS.md through an agent run that `keel runs list` shows; a second init updates it', async () => {
    const guide = '# App\n\n- Test with `npm test`.\n';
    await using s = await startServer(
      [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'AGENTS.md', content: guide } }] },
        { when: { lastRole: 'tool' }, text: 'Wrote AGENTS.md: layout and commands.' },
        {
          when: { lastMessageIncludes: 'already exists' },
          toolCalls: [
            {
              name: 'edit_file',
              arguments: {
                path: 'AGENTS.md',
                old_text: '- Test',
                new_text: '- Lint with `npm run lint`.\n- Test',
              },
            },
          ],
        },
        { when: { lastRole: 'tool' }, text: 'Updated AGENTS.md.' },
      ],
      { files: { 'package.json': '{"scripts": {"test": "vitest", "lint": "biome check"}}' } },
    );
    const project = (await s.api('POST', '/api/projects', { name: 'App', workdir: s.repo.path })).body;
    const init = await s.api('POST', `/api/projects/${project.id}/init`);
    expect(init.status).toBe(202);
    expect(init.body).toMatchObject({
      run_id: expect.stringMatching(/^run_/),
      guide_path: join(s.repo.path, 'AGENTS.md'),
      run: { status: 'queued', workdir: s.repo.path },
    });
    const runId: string = init.body.run_id;
    const done = await s.until(runId, (run) => ['succeeded', 'failed'].includes(run.status));
    expect(done.status).toBe('succeeded');
    expect(
      done.steps.map((step: { node_id: string; kind: string }) => `${step.node_id}:${step.kind}`),
    ).toEqual(expect.arrayContaining(['analyse:model_turn', 'check_guide:tool']));
    expect(await readFile(join(s.repo.path, 'AGENTS.md'), 'utf8')).toBe(guide);

    // Visible as a run like any other, from the command line on the same store.
    const { runs } = JSON.parse(await keel(['runs', 'list', '--json', '-w', s.repo.path], s.env));
    expect(runs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: runId, status: 'succeeded', workdir: s.repo.path }),
      ]),
    );
    const listed = await keel(['runs', 'list', '-w', s.repo.path], s.env);
    expect(listed).toMatch(
      new RegExp(`^${runId}  succeeded  .*Initialise the project guide AGENTS\\.md`, 'm'),
    );

    const again = await s.api('POST', `/api/projects/${project.id}/init`);
    expect(again.body.run.prompt).toContain('AGENTS.md already exists');
    expect(
      (await s.until(again.body.run_id, (run) => ['succeeded', 'failed'].includes(run.status))).status,
    ).toBe('succeeded');
    expect(await readFile(join(s.repo.path, 'AGENTS.md'), 'utf8')).toBe(
      '# App\n\n- Lint with `npm run lint`.\n- Test with `npm test`.\n',
    );
  }, 60_000);
});
