import { useState } from 'react';
import { api } from '../../api/client.ts';
import type { Session, Task } from '../../api/types.ts';
import { MessageBox } from '../../components/message-box.tsx';
import { SessionView } from '../../components/session-view.tsx';
import { Badge, Empty, ErrorNote, Loading } from '../../components/status.tsx';
import { useRefreshOnFinish, useTaskAction } from './task-actions.ts';
import { TodoAddForm, TodoEditForm, useTodoEdits } from './todo-editor.tsx';
import { TodoOrigin } from './todo-origin.tsx';

export function TodosStage({ task }: { task: Task }) {
  const can = (action: string) => task.allowed_actions.includes(action);
  const adjust = useTaskAction<{ message?: string }>(task, (body) => api.tasks.todo(task.id, body));
  const start = useTaskAction(task, () => api.tasks.startCoding(task.id));
  const refresh = useRefreshOnFinish(task);
  // The list is edited by hand while it waits for coding and no AI turn is adjusting it.
  const [session, setSession] = useState<Session | null>(null);
  const turnRunning =
    adjust.isPending ||
    (session !== null &&
      session.id === task.plan_session_id &&
      (session.status === 'running' || session.status === 'queued'));
  const editable = task.state === 'TODO_READY' && !turnRunning;
  const edits = useTodoEdits(task);
  const [editingId, setEditingId] = useState<string | null>(null);
  const listError = edits.remove.error ?? edits.reorder.error;
  return (
    <section className="card stage" aria-labelledby="stage-title">
      <h2 id="stage-title">03 · Task breakdown</h2>
      <div className="stage-split">
        <div>
          <div className="page-head">
            <h3>Todos</h3>
            <div className="spacer" />
            <button
              data-shortcut="next"
              type="button"
              className="button-primary"
              disabled={!can('start_coding') || task.todos.length === 0 || start.isPending}
              onClick={() => start.mutate()}
            >
              Start coding →
            </button>
          </div>
          <ErrorNote error={start.error} />
          {task.state === 'PLAN_LOCKED' ? (
            <Loading what="the todo list (the AI is breaking the plan down)" />
          ) : null}
          {task.todos.length === 0 && task.state !== 'PLAN_LOCKED' ? <Empty>No todos.</Empty> : null}
          <ol className="todo-list">
            {task.todos.map((todo, index) =>
              editable && editingId === todo.id ? (
                <li key={todo.id}>
                  <TodoEditForm
                    todo={todo}
                    pending={edits.edit.isPending}
                    error={edits.edit.error}
                    onSave={(patch) =>
                      edits.edit.mutate({ id: todo.id, patch }, { onSuccess: () => setEditingId(null) })
                    }
                    onCancel={() => setEditingId(null)}
                  />
                </li>
              ) : (
                <li key={todo.id}>
                  <div className="todo-title">
                    <strong>{todo.title}</strong> <TodoOrigin todo={todo} /> <Badge value={todo.status} />
                  </div>
                  {todo.description ? <div className="pre muted">{todo.description}</div> : null}
                  {todo.expected_output ? (
                    <div className="hint">
                      <strong>Expected:</strong> {todo.expected_output}
                    </div>
                  ) : null}
                  {editable ? (
                    <div className="todo-actions">
                      <button
                        type="button"
                        className="button-link"
                        aria-label={`Edit: ${todo.title}`}
                        disabled={edits.pending}
                        onClick={() => {
                          edits.edit.reset();
                          setEditingId(todo.id);
                        }}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        className="button-link"
                        aria-label={`Move up: ${todo.title}`}
                        disabled={edits.pending || index === 0}
                        onClick={() => edits.move(index, -1)}
                      >
                        ↑ Up
                      </button>
                      <button
                        type="button"
                        className="button-link"
                        aria-label={`Move down: ${todo.title}`}
                        disabled={edits.pending || index === task.todos.length - 1}
                        onClick={() => edits.move(index, 1)}
                      >
                        ↓ Down
                      </button>
                      <button
                        type="button"
                        className="button-link danger"
                        aria-label={`Remove: ${todo.title}`}
                        disabled={edits.pending}
                        onClick={() => edits.remove.mutate(todo.id)}
                      >
                        Remove
                      </button>
                    </div>
                  ) : null}
                </li>
              ),
            )}
          </ol>
          <ErrorNote error={listError} />
          {editable ? (
            <TodoAddForm
              pending={edits.add.isPending}
              error={edits.add.error}
              onAdd={(input, done) => edits.add.mutate(input, { onSuccess: done })}
            />
          ) : null}
          <MessageBox
            label="Adjust the list"
            placeholder="e.g. Split the second todo; add tests as their own todo."
            disabled={!can('todo')}
            pending={adjust.isPending}
            error={adjust.error}
            onSend={(message) => adjust.mutate({ message })}
          />
        </div>
        <div>
          {task.plan_session_id ? (
            <SessionView
              sessionId={task.plan_session_id}
              title="Plan and breakdown conversation"
              onStatus={(next) => {
                setSession(next);
                refresh(next);
              }}
            />
          ) : null}
        </div>
      </div>
    </section>
  );
}
