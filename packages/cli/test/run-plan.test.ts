import { describe, expect, test } from 'vitest';
import { keel } from './keel-process.ts';
import { scenario } from './scenario.ts';

describe('keel run --plan', () => {
  test('a planner splits the work, specialists do the tasks, and the aggregate comes last in task-id order', async () => {
    await using s = await scenario([
      {
        when: { lastMessageIncludes: 'Break the request' },
        text: JSON.stringify({
          tasks: [
            { id: 'b', capability: 'test', task: 'PLAN-B run the tests' },
            { id: 'a', capability: 'research', task: 'PLAN-A read the README' },
          ],
        }),
      },
      { when: { lastMessageIncludes: 'PLAN-A' }, text: 'The README is short.' },
      { when: { lastMessageIncludes: 'PLAN-B' }, text: 'Tests pass.' },
    ]);
    const ran = await keel(['run', '--plan', 'check the project', '-w', s.repo.path], s.env);
    expect(ran.stderr).not.toContain('Error');
    expect(ran.code).toBe(0);
    expect(
      ran.stdout.endsWith(
        '\n## a · research (research)\n\nThe README is short.\n\n## b · test (test)\n\nTests pass.\n',
      ),
    ).toBe(true);
  }, 60_000);

  test('--plan with --workflow is refused, saying why', async () => {
    await using s = await scenario([]);
    const ran = await keel(['run', '--plan', '--workflow', 'w.json', 'x', '-w', s.repo.path], s.env);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toBe(
      'Error [INVALID_PARAMS]: Give --plan or --workflow, not both: --plan is a one-task-graph workflow.\n',
    );
  });
});
