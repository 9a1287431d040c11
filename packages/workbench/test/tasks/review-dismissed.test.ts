// Issue #38, point 4: a finding the user dismissed does not come back as open in the next review round:
// the reviewer is told what was dismissed, a finding it reports again stays dismissed, and one it does not
// report again stays listed as dismissed (so every later round is told too).
import { describe, expect, test } from 'vitest';
import {
  type Body,
  eventually,
  planningScript,
  repoWithRemote,
  reviewerReply,
  startWorkbench,
  taskInCoding,
  tempDir,
} from '../harness.ts';

const style = {
  severity: 'info',
  repository: 'app',
  file: 'greeting.txt',
  line: 1,
  message: 'Prefer "Hello".',
};
const bug = {
  severity: 'error',
  repository: 'app',
  file: 'greeting.txt',
  line: null,
  message: 'The greeting has no newline.',
};

describe('dismissed findings across review rounds', () => {
  test('the reviewer is told what was dismissed; reported again, it stays dismissed', {
    timeout: 120_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('dismissed'), 'app', { 'greeting.txt': 'hi\n' });
    await using wb = await startWorkbench([
      reviewerReply([style, bug]),
      ...planningScript(1, ['greet']),
      {
        when: { lastMessageIncludes: 'Do todo 1 of 1' },
        toolCalls: [{ name: 'write_file', arguments: { path: 'app/greeting.txt', content: 'hey' } }],
      },
      { when: { lastRole: 'tool' }, text: 'Done.', repeat: true },
      { when: { lastMessageIncludes: 'Write the commit message' }, text: 'Greet', repeat: true },
    ]);
    const { api } = wb;
    const task = await taskInCoding(api, [{ path: repo.dir, type: 'backend' }]);
    expect((await api('POST', `/api/tasks/${task.id}/run-all`)).status).toBe(202);
    const round = (n: number) =>
      eventually(
        async () => {
          const view = (await api('GET', `/api/tasks/${task.id}`)).body;
          return view.review?.round === n && view.review.status === 'done' && view;
        },
        `review round ${n}`,
        60_000,
      );
    const first = await round(1);
    const praise = (first.review.findings as Body[]).find((finding) => finding.message === style.message);
    expect((await api('POST', `/api/tasks/${task.id}/findings/${praise?.id}/dismiss`)).body.status).toBe(
      'dismissed',
    );

    // Round 2: the reviewer, told, reports the style point again in other words at the same line, and the bug.
    wb.model.push(reviewerReply([{ ...style, message: 'Consider "Hello" instead of "hey".' }, bug]));
    await eventually(
      async () => (await api('POST', `/api/tasks/${task.id}/review`)).status === 202,
      'round 2 to start',
    );
    const second = await round(2);
    const prompts = wb.model.chatRequests.filter((request) =>
      JSON.stringify(request.messages).includes('Review this change before it becomes a merge request'),
    );
    const told = String(prompts.at(-1)?.messages?.at(-1)?.content);
    expect(told).toContain('## Dismissed by the user in an earlier round');
    expect(told).toContain('- [info] app/greeting.txt:1: Prefer "Hello".');
    expect(String(prompts[0]?.messages?.at(-1)?.content)).not.toContain('Dismissed by the user');
    expect((second.review.findings as Body[]).map((finding) => [finding.message, finding.status])).toEqual([
      ['Consider "Hello" instead of "hey".', 'dismissed'],
      [bug.message, 'open'],
    ]);

    // Round 3: the reviewer says nothing of it; it stays on the list, dismissed, and is told again.
    wb.model.push(reviewerReply([bug]));
    await eventually(
      async () => (await api('POST', `/api/tasks/${task.id}/review`)).status === 202,
      'round 3 to start',
    );
    const third = await round(3);
    expect((third.review.findings as Body[]).map((finding) => [finding.message, finding.status])).toEqual([
      [bug.message, 'open'],
      ['Consider "Hello" instead of "hey".', 'dismissed'],
    ]);
  });
});
