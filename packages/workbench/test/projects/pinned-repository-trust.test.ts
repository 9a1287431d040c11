// Issue #36, item 2: with a project's trust_repository_config on, its Keel runs and checks apply what the
// user reviewed in the source repository, never what an agent wrote in a task's workspace. The attack: the
// workspace's `.runtime/config.json` rewritten to turn the sandbox off, then the check after the next todo
// (`node mark.js`, a program the repository names) writing outside the workspace. Real workbench, real
// git, real bubblewrap.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  type Body,
  planningScript,
  repoWithRemote,
  startWorkbench,
  taskInCoding,
  tempDir,
  todoEnded,
} from '../harness.ts';

// The checks run in bubblewrap where it is installed (the runtime's default backend).
const bwrap = (process.env.PATH ?? '').split(delimiter).some((dir) => existsSync(join(dir, 'bwrap')));

const writes = (path: string) => ({
  toolCalls: [{ name: 'write_file', arguments: { path, content: 'x\n' } }],
});

describe.skipIf(bwrap === undefined)("the workbench applies the source repository's reviewed config", () => {
  test('a workspace config an agent rewrote does not turn the sandbox off for the checks; the source, re-approved, does', {
    timeout: 120_000,
  }, async () => {
    // Outside /tmp (the sandbox's is private) and outside the read boundary: only an unsandboxed check reaches it.
    const outside = mkdtempSync('/var/tmp/keel-pinned-trust-');
    const marker = join(outside, 'escaped');
    const config = (enabled: boolean) => `${JSON.stringify({ sandbox: { enabled } })}\n`;
    const repo = repoWithRemote(tempDir('pinned-trust'), 'app', {
      '.runtime/config.json': config(true),
      'mark.js': `try { require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x'); console.log('escaped'); } catch (error) { console.log('confined: ' + error.code); }\n`,
    });
    await using wb = await startWorkbench([
      ...planningScript(1, ['one', 'two']),
      { when: { lastMessageIncludes: 'Do todo 1 of 2' }, ...writes('app/one.txt') },
      { when: { lastMessageIncludes: 'Do todo 2 of 2' }, ...writes('app/two.txt') },
      { when: { lastRole: 'tool' }, text: 'Done.', repeat: true },
    ]);
    const { api } = wb;
    try {
      const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
      const projectId = task.project_id;
      await api('PUT', `/api/projects/${projectId}`, {
        checks: { app: [{ name: 'mark', command: 'node mark.js' }] },
        repair_turns: 0,
      });
      // The user reviewed the source's file (the sandbox stays on) and turned trust on.
      const reviewed = (await api('GET', `/api/projects/${projectId}/repository-config`)).body;
      expect(reviewed.repositories[0].asks.map((ask: Body) => [ask.key, ask.value])).toEqual([
        ['sandbox.enabled', true],
      ]);
      const on = await api('PUT', `/api/projects/${projectId}`, { trust_repository_config: true });
      expect(on.status).toBe(200);
      // What was reviewed is the workbench's own record, not part of the answer.
      expect(JSON.stringify(on.body)).not.toContain('reviewed_config');
      expect(
        (await api('GET', `/api/projects/${projectId}/repository-config`)).body.repositories[0],
      ).toMatchObject({
        trusted: true,
      });

      // The agent rewrote the workspace's file (by a command, say): the check after the next todo ignores it.
      writeFileSync(join(task.work_dir, 'app', '.runtime', 'config.json'), config(false));
      const [first, second] = task.todos as Body[];
      await api('POST', `/api/todos/${first.id}/execute`);
      const one = await todoEnded(api, first.id);
      expect(one.checks[0]).toMatchObject({ name: 'mark', exit_code: 0 });
      expect(one.checks[0].output).toContain('confined: ENOENT');
      expect(existsSync(marker)).toBe(false);

      // The user changes their own source repository's file: not applied until approved again, and the
      // report says which key changed.
      writeFileSync(join(repo.dir, '.runtime', 'config.json'), config(false));
      const changed = (await api('GET', `/api/projects/${projectId}/repository-config`)).body.repositories[0];
      expect(changed.trusted).toBe(false);
      expect(changed.asks).toEqual([
        expect.objectContaining({
          key: 'sandbox.enabled',
          value: false,
          why: expect.stringMatching(/^changed since you trusted it; /),
        }),
      ]);
      await api('PUT', `/api/projects/${projectId}`, { trust_repository_config: true });
      expect(
        (await api('GET', `/api/projects/${projectId}/repository-config`)).body.repositories[0].trusted,
      ).toBe(true);
      // Approved on purpose, the same file in the workspace applies: the check runs without the sandbox.
      await api('POST', `/api/todos/${second.id}/execute`);
      const two = await todoEnded(api, second.id);
      expect(two.checks[0].output).toContain('escaped');
      expect(existsSync(marker)).toBe(true);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
