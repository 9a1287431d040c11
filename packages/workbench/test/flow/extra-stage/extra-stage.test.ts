// Issue #43: the flow runs the hand-offs. A sixth stage, "Security review", is registered between coding and
// review from this folder alone (`./security-review/`): the registry numbers it and review after it, coding's
// hand-off leads into it (its scan starts by itself, the reviewer does not), and its own hand-off leads on
// into review (where the reviewer starts by itself), all over the HTTP API with the scripted model.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildFlow, defaultStages, withStage } from '../../../src/tasks/index.ts';
import {
  type Body,
  eventually,
  planningScript,
  repoWithRemote,
  startWorkbench,
  taskInCoding,
  tempDir,
} from '../../harness.ts';
import { securityReviewStage } from './security-review/index.ts';
import { allClear } from './security-review/security-stage.ts';

const scan = 'Check this change for security problems';

describe('a stage registered from outside the stages folder', () => {
  test('security review between coding and review: numbered by the registry, entered and left by the flow', {
    timeout: 120_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('extra-stage'), 'app', { 'a.txt': 'a\n' }, { pushOptions: true });
    await using wb = await startWorkbench(
      [
        ...planningScript(1, ['one']),
        {
          when: { lastMessageIncludes: 'Do todo 1 of 1' },
          toolCalls: [{ name: 'write_file', arguments: { path: 'app/one.txt', content: '1\n' } }],
        },
        { when: { lastRole: 'tool' }, text: 'Done.' },
        { when: { lastMessageIncludes: scan }, text: 'app/one.txt: a token is written in clear.' },
        { when: { lastMessageIncludes: scan }, text: allClear },
        { when: { lastMessageIncludes: 'Write the commit message' }, text: 'feat: one' },
      ],
      { workbench: { stages: withStage(defaultStages, securityReviewStage, { before: 'review' }) } },
    );
    const { api } = wb;

    const flow = (await api('GET', '/api/flow')).body;
    expect(flow.stages.map((stage: Body) => [stage.number, stage.key, stage.title])).toEqual([
      ['01', 'init', 'Initialization'],
      ['02', 'plan', 'Plan'],
      ['03', 'todos', 'Todos'],
      ['04', 'coding', 'Coding'],
      ['05', 'security', 'Security review'],
      ['06', 'review', 'Review'],
    ]);
    const to = (action: string) => flow.moves.find((move: Body) => move.action === action).to;
    expect([to('confirm_init'), to('lock_plan'), to('finish_coding')]).toEqual([
      'PLANNING',
      'PLAN_LOCKED',
      'SECURITY_REVIEW',
    ]);
    expect([to('security_passed'), to('accept_security')]).toEqual(['REVIEWING', 'REVIEWING']);
    expect(flow.moves.find((move: Body) => move.action === 'cancel').from).toContain('SECURITY_REVIEW');

    // Init, plan and todos hand on as in the five-stage flow (each entered stage starts its own work).
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom', provider: 'gitlab' } as Body]);
    expect((await api('POST', `/api/tasks/${task.id}/run-all`)).status).toBe(202);

    // Coding hands over to the security review, whose scan starts by itself; the reviewer has not started.
    const found = await eventually(async () => {
      const view = (await api('GET', `/api/tasks/${task.id}`)).body;
      const scanned = view.sessions.find((session: Body) => session.kind === 'reviewer');
      return view.state === 'SECURITY_REVIEW' && scanned?.status === 'succeeded' && !scanned.busy && view;
    }, 'the first scan');
    expect(found).toMatchObject({ review: null, commit_message: null, error: null });
    expect(found.allowed_actions).toEqual(['security_scan', 'security_passed', 'accept_security', 'cancel']);
    expect(readFileSync(join(found.work_dir, 'security-review.md'), 'utf8')).toContain('in clear');

    // Scanned again, it finds nothing: the flow hands the task on to review, which starts its reviewer.
    const again = await api('POST', `/api/tasks/${task.id}/security-scan`, {
      message: 'Look at app/one.txt.',
    });
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    expect(again.body.task.state).toBe('SECURITY_REVIEW');
    const reviewed = await eventually(async () => {
      const view = (await api('GET', `/api/tasks/${task.id}`)).body;
      return view.state === 'REVIEWING' && view.review?.status === 'done' && view.commit_message && view;
    }, 'the review after the scan');
    expect(reviewed.review).toMatchObject({ round: 1, findings: [] });
    expect(readFileSync(join(reviewed.work_dir, 'security-review.md'), 'utf8')).toBe(`${allClear}\n`);
    const submitted = await api('POST', `/api/tasks/${task.id}/submit-mr`);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.state).toBe('DONE');
    expect(repo.git('log', '-1', '--format=%s', task.branch)).toBe('feat: one');
  });

  test('a stage is placed by key; a hand-off with no stage after it is refused when the flow is built', () => {
    expect(() => withStage(defaultStages, securityReviewStage, { before: 'audit' })).toThrow(
      /No stage of the flow has the key 'audit'/,
    );
    const last = withStage(defaultStages, securityReviewStage);
    expect(last.map((stage) => stage.key).at(-1)).toBe('security');
    expect(() => buildFlow(last)).toThrow(
      /The move 'security_passed' of stage 'security' leads to the next stage, and none follows it/,
    );
  });
});
