import type { Task } from '@keel/protocol/workbench';
import { describe, expect, test } from 'vitest';
import { AttentionTracker, attentionOf } from '../src/index.ts';

/** A task as the service answers it, with only what attention reads filled in. */
function task(fields: Partial<Task> & { id?: string }): Task {
  return {
    id: 'task_1',
    description: 'Add a greeting\nwith details',
    state: 'CREATED',
    init: { status: 'idle', steps: [] },
    plan: null,
    todos: [],
    sessions: [],
    review: null,
    results: null,
    merge_requests: null,
    ...fields,
  } as unknown as Task;
}

const todo = (position: number, status: string, error_code: string | null = null) => ({
  position,
  status,
  error_code,
});

describe('what needs the user', () => {
  test.each([
    [{ state: 'INITIALIZING', init: { status: 'running', steps: [] } }, undefined],
    [{ state: 'INITIALIZING', init: { status: 'done', steps: [] } }, 'init_done'],
    [{ state: 'INITIALIZING', init: { status: 'failed', steps: [] } }, 'init_failed'],
    [{ state: 'PLANNING', plan: null }, undefined],
    [{ state: 'PLANNING', plan: '# Plan' }, 'plan_drafted'],
    [{ state: 'PLANNING', plan: '# Plan', sessions: [{ busy: true }] }, undefined],
    [{ state: 'PLAN_LOCKED' }, undefined],
    [{ state: 'TODO_READY' }, 'todos_ready'],
    [{ state: 'CODING', todos: [todo(1, 'done'), todo(2, 'running')] }, undefined],
    [{ state: 'CODING', todos: [todo(1, 'failed'), todo(2, 'pending')] }, 'todo_failed'],
    [{ state: 'CODING', todos: [todo(1, 'failed', 'STOPPED'), todo(2, 'pending')] }, 'coding_paused'],
    [{ state: 'REVIEWING', review: { status: 'running' } }, undefined],
    [{ state: 'REVIEWING', review: { status: 'done' } }, 'review_done'],
    [{ state: 'REVIEWING', results: [{ error: { code: 'GIT_ERROR', message: 'x' } }] }, 'submit_failed'],
    [
      {
        state: 'DONE',
        merge_requests: [{ status: { state: 'open', checks_state: 'failed' } }],
      },
      'checks_failed',
    ],
    [{ state: 'DONE', merge_requests: [{ status: { state: 'merged', checks_state: 'passed' } }] }, undefined],
    [{ state: 'CANCELLED' }, undefined],
  ])('%j → %s', (fields, kind) => {
    expect(attentionOf(task(fields as Partial<Task>))?.kind).toBe(kind);
  });

  test('says the task by its first line, and what to do', () => {
    expect(attentionOf(task({ state: 'TODO_READY' }))).toEqual({
      kind: 'todos_ready',
      title: 'Todos ready: Add a greeting',
      body: 'Review the todos, then start coding.',
    });
  });

  test('announces each new wait once; counts every waiting task; what waited before the start is not news', () => {
    const tracker = new AttentionTracker();
    tracker.prime([task({ id: 'old', state: 'TODO_READY' }), task({ id: 'busy', state: 'PLAN_LOCKED' })]);
    expect(tracker.waiting).toBe(1);
    expect(tracker.update(task({ id: 'old', state: 'TODO_READY' }))).toBeUndefined();
    expect(tracker.update(task({ id: 'busy', state: 'TODO_READY' }))?.kind).toBe('todos_ready');
    expect(tracker.update(task({ id: 'busy', state: 'TODO_READY' }))).toBeUndefined();
    expect(tracker.waiting).toBe(2);
    expect(
      tracker.update(task({ id: 'busy', state: 'CODING', todos: [todo(1, 'running')] as never })),
    ).toBeUndefined();
    expect(tracker.waiting).toBe(1);
    tracker.forget('old');
    expect(tracker.waiting).toBe(0);
  });
});
