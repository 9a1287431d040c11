import type { z } from 'zod';
import { WorkbenchError } from '../../../errors.ts';
import type { TaskDeps } from '../../deps.ts';
import type {
  FollowedMergeRequest,
  followUpBody,
  ReviewFinding,
  Task,
  Todo,
  TodoOrigin,
} from '../../types.ts';
import { changeFindings, findFinding } from './reviewer.ts';

type FollowUpBody = z.infer<typeof followUpBody>;
type NewTodo = { title: string; description: string; expected_output: string; origin: TodoOrigin };

/**
 * Review findings, failed MR checks, MR comments or todos written out become todos at the end of the list,
 * and the task goes back to CODING on the same branch: once they are done it is reviewed again, and a
 * submit pushes their commit to the same merge request. Everything is checked before anything is written.
 */
export async function followUp(
  deps: TaskDeps,
  taskId: string,
  body: FollowUpBody,
): Promise<{ task: Task; todos: Todo[] }> {
  const task = await deps.store.check(taskId, 'follow_up');
  const release = deps.busy.claim(taskId, 'adding follow-up todos');
  try {
    for (const id of [task.review?.session_id, task.review_session_id]) {
      if (id) deps.runner.assertIdle(id);
    }
    const planned: NewTodo[] = [
      ...body.findings.map((id) => fromFinding(openFinding(task, id))),
      ...body.merge_request.map((item) => fromMergeRequest(task, item)),
      ...body.todos.map((todo) => ({ ...todo, origin: { kind: 'user' } as const })),
    ];
    const added: Todo[] = [];
    // One at a time, in order: each goes at the end as the list is then.
    for (const item of planned) added.push(await deps.store.insertTodo(taskId, item));
    if (task.review && body.findings.length > 0) {
      const todoOf = new Map(
        added.flatMap((todo) => (todo.origin.kind === 'review' ? [[todo.origin.finding_id, todo.id]] : [])),
      );
      await changeFindings(deps, taskId, (finding) => {
        const todoId = todoOf.get(finding.id);
        return todoId ? { ...finding, status: 'follow_up' as const, todo_id: todoId } : finding;
      });
    }
    // The commit message described the change before these todos: it is written again after them.
    await deps.store.update(taskId, { commit_message: null, error: null });
    await deps.store.move(taskId, 'follow_up');
    return { task: await deps.store.get(taskId), todos: await deps.store.todos(taskId) };
  } finally {
    release();
  }
}

function openFinding(task: Task, id: string): ReviewFinding {
  const finding = findFinding(task, id);
  if (finding.status !== 'open') {
    throw new WorkbenchError(
      'FINDING_NOT_OPEN',
      `Finding '${id}' is ${finding.status === 'dismissed' ? 'dismissed' : 'already a follow-up todo'}: only an open finding becomes a todo.`,
      { finding_id: id, status: finding.status },
    );
  }
  return finding;
}

function fromFinding(finding: ReviewFinding): NewTodo {
  const where = [finding.repository, finding.file].filter(Boolean).join('/');
  const at = where ? ` in ${where}${finding.line ? `:${finding.line}` : ''}` : '';
  return {
    title: `Review: ${firstLine(finding.message)}`,
    description: `The reviewer found a problem (${finding.severity})${at}:\n\n${finding.message}\n\nFix it.`,
    expected_output: 'The problem the reviewer found is fixed.',
    origin: { kind: 'review', finding_id: finding.id },
  };
}

function fromMergeRequest(
  task: Task,
  item: { repository: string; check?: string | undefined; comment_id?: string | undefined },
): NewTodo {
  const followed = task.merge_requests?.find((each) => each.repository === item.repository);
  if (!followed?.status) {
    throw new WorkbenchError(
      'MERGE_REQUEST_NOT_FOUND',
      `No merge request of ${item.repository} has been read yet: refresh it first (POST /api/tasks/${task.id}/merge-requests/refresh).`,
      { repository: item.repository },
    );
  }
  if (item.check !== undefined) return fromCheck(followed, item.check);
  return fromComment(followed, item.comment_id as string);
}

function fromCheck(followed: FollowedMergeRequest, name: string): NewTodo {
  const check = followed.status?.checks.find((each) => each.name === name);
  if (!check) {
    throw new WorkbenchError(
      'MERGE_REQUEST_ITEM_NOT_FOUND',
      `The merge request of ${followed.repository} has no check '${name}'.`,
      { repository: followed.repository, check: name },
    );
  }
  return {
    title: `Fix the failing check ${name} in ${followed.repository}`,
    description: [
      `The check '${name}' of the merge request ${followed.url} is ${check.status}.`,
      check.summary ? `\nWhat it reported:\n${check.summary}` : '',
      check.log ? `\n\nThe failing part of its log:\n${fenced(check.log)}` : '',
      check.url ? `\nDetails: ${check.url}` : '',
      '\nFind the cause in the repository and fix it.',
    ].join(''),
    expected_output: `The check ${name} passes.`,
    origin: { kind: 'merge_request', repository: followed.repository, check: name },
  };
}

function fromComment(followed: FollowedMergeRequest, id: string): NewTodo {
  const comment = followed.status?.comments.find((each) => each.id === id);
  if (!comment) {
    throw new WorkbenchError(
      'MERGE_REQUEST_ITEM_NOT_FOUND',
      `The merge request of ${followed.repository} has no comment '${id}'.`,
      { repository: followed.repository, comment_id: id },
    );
  }
  const at = comment.path ? ` on ${comment.path}${comment.line ? `:${comment.line}` : ''}` : '';
  return {
    title: `Address ${comment.author}'s comment${at}`,
    description: `${comment.author} commented on the merge request ${followed.url}${at}:\n\n${comment.body}\n\nDo what it asks, in ${followed.repository}.`,
    expected_output: 'The comment is addressed.',
    origin: { kind: 'merge_request', repository: followed.repository, comment_id: id },
  };
}

// A fence longer than any run of backticks in the text, so a log that has one cannot close it early.
function fenced(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text.replace(/\n+$/, '')}\n${fence}\n`;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]?.trim() ?? text;
  return line.length > 120 ? `${line.slice(0, 117)}…` : line;
}
