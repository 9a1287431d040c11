import { api } from '../../api/client.ts';
import type { Task } from '../../api/types.ts';
import { MessageBox } from '../../components/message-box.tsx';
import { SessionView } from '../../components/session-view.tsx';
import { Badge, Empty, ErrorNote, Loading } from '../../components/status.tsx';
import { useRefreshOnFinish, useTaskAction } from './task-actions.ts';

export function TodosStage({ task }: { task: Task }) {
  const can = (action: string) => task.allowed_actions.includes(action);
  const adjust = useTaskAction<string | undefined>(task, (message) => api.tasks.todo(task.id, message));
  const start = useTaskAction(task, () => api.tasks.startCoding(task.id));
  const refresh = useRefreshOnFinish(task);
  return (
    <section className="card stage" aria-labelledby="stage-title">
      <h2 id="stage-title">03 · Task breakdown</h2>
      <div className="stage-split">
        <div>
          <div className="page-head">
            <h3>Todos</h3>
            <div className="spacer" />
            <button
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
            {task.todos.map((todo) => (
              <li key={todo.id}>
                <div className="todo-title">
                  <strong>{todo.title}</strong> <Badge value={todo.status} />
                </div>
                {todo.description ? <div className="pre muted">{todo.description}</div> : null}
                {todo.expected_output ? (
                  <div className="hint">
                    <strong>Expected:</strong> {todo.expected_output}
                  </div>
                ) : null}
              </li>
            ))}
          </ol>
          <MessageBox
            label="Adjust the list"
            placeholder="e.g. Split the second todo; add tests as their own todo."
            disabled={!can('todo')}
            pending={adjust.isPending}
            error={adjust.error}
            onSend={(message) => adjust.mutate(message)}
          />
        </div>
        <div>
          {task.plan_session_id ? (
            <SessionView
              sessionId={task.plan_session_id}
              title="Plan and breakdown conversation"
              onStatus={refresh}
            />
          ) : null}
        </div>
      </div>
    </section>
  );
}
