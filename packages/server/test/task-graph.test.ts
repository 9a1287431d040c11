import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

describe('task graphs and gates over the web API', () => {
  test('POST /runtime/runs with a task_graph workflow: tasks by specialist, the aggregate, the tasks artifact', async () => {
    await using s = await startServer([
      { when: { lastMessageIncludes: 'WEB-1' }, text: 'Found it.' },
      { when: { lastMessageIncludes: 'WEB-2' }, text: 'Changed it.' },
    ]);
    const workflow = {
      root: {
        id: 'work',
        kind: 'task_graph',
        tasks: [
          { id: 'find', capability: 'research', task: 'WEB-1 find the setting' },
          { id: 'change', capability: 'code', task: 'WEB-2 change the setting', depends_on: ['find'] },
        ],
      },
    };
    const started = await s.api('POST', '/runtime/runs', { prompt: 'x', workdir: s.repo.path, workflow });
    expect(started.status).toBe(202);
    const finished = await s.until(started.body.id, (run) => run.status === 'succeeded');
    expect(finished.result.output).toBe(
      '## change · code (code)\n\nChanged it.\n\n## find · research (research)\n\nFound it.',
    );
    const artifacts = await s.api('GET', `/runtime/runs/${started.body.id}/artifacts`);
    expect(artifacts.body.artifacts).toMatchObject([
      { kind: 'tasks', name: 'work-tasks.json', node_id: 'work' },
    ]);
  });

  test('a graph with a cycle or a gate with nothing to check is refused with 400 INVALID_PARAMS', async () => {
    await using s = await startServer([]);
    const cyclic = {
      root: {
        id: 'g',
        kind: 'task_graph',
        tasks: [
          { id: 'a', capability: 'code', task: 'x', depends_on: ['b'] },
          { id: 'b', capability: 'code', task: 'y', depends_on: ['a'] },
        ],
      },
    };
    for (const workflow of [cyclic, { root: { id: 'gate', kind: 'gate' } }]) {
      const refused = await s.api('POST', '/runtime/runs', { prompt: 'x', workdir: s.repo.path, workflow });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('INVALID_PARAMS');
    }
  });
});
