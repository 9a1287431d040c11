import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import type { ApiError } from '../../api/errors.ts';
import { stoppedByUser } from '../../api/task-status.ts';
import type { LogEntry, SentMessage, Task, Todo, TodoDiff } from '../../api/types.ts';
import { usageWords } from '../../api/usage-words.ts';
import { DiffViewer } from '../../components/lazy.tsx';
import { MessageBox } from '../../components/message-box.tsx';
import { SessionView } from '../../components/session-view.tsx';
import { Badge, Empty, ErrorNote, Loading } from '../../components/status.tsx';
import { StopButton } from '../../components/stop-button.tsx';
import { ChecksBaseline } from './checks-baseline.tsx';
import { useRefreshOnFinish, useTaskAction } from './task-actions.ts';
import { repairCount, TodoCheckRuns } from './todo-checks.tsx';
import { TodoOrigin } from './todo-origin.tsx';

function isNext(todo: Todo, todos: Todo[]): boolean {
  return todos
    .filter((each) => each.position < todo.position)
    .every((each) => each.status === 'done' || each.status === 'skipped');
}

export function CodingStage({ task }: { task: Task }) {
  const queryClient = useQueryClient();
  const can = (action: string) => task.allowed_actions.includes(action);
  const todos = [...task.todos].sort((a, b) => a.position - b.position);
  const running = todos.find((todo) => todo.status === 'running');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected =
    todos.find((todo) => todo.id === selectedId) ??
    running ??
    todos.find((todo) => todo.status === 'failed') ??
    todos.find((todo) => todo.status === 'pending') ??
    todos.at(-1);
  const runAll = useTaskAction(task, () => api.tasks.runAll(task.id));
  const execute = useMutation<unknown, ApiError, string>({
    mutationFn: (todoId) => api.todos.execute(todoId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['task', task.id] }),
  });
  const skip = useMutation<unknown, ApiError, string>({
    mutationFn: (todoId) => api.todos.skip(todoId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['task', task.id] }),
  });
  const refresh = useRefreshOnFinish(task);
  // A message to the running todo's agent: queued in its session and answered within the todo.
  const steer = useMutation<SentMessage, ApiError, { sessionId: string; message: string }>({
    mutationFn: ({ sessionId, message }) => api.sessions.send(sessionId, message),
  });
  // Bumped when the selected todo's session pushes the end of a tool call that may change files: the
  // diff is read again then, instead of on a timer.
  const [changes, setChanges] = useState(0);
  const onEntry = (entry: LogEntry) => {
    if (entry.event.type === 'tool_result' && changingKinds.has(entry.event.kind)) setChanges((n) => n + 1);
  };
  // The todo the user stopped last, to say what became of it (failed: retry it or skip it).
  const [stoppedId, setStoppedId] = useState<string | null>(null);
  const stopped = todos.find((todo) => todo.id === stoppedId && todo.status !== 'running');
  const skipped = todos.filter((todo) => todo.status === 'skipped').length;
  const done = todos.filter((todo) => todo.status === 'done').length;
  const remaining = todos.filter((todo) => todo.status === 'pending' || todo.status === 'failed').length;
  return (
    <section className="card stage" aria-labelledby="stage-title">
      <h2 id="stage-title">04 · Coding</h2>
      <div className="page-head">
        <p className="hint">
          Todos run strictly in order, each in its own session. Skip any pending todo; Run all leaves skipped
          ones out.
        </p>
        <div className="spacer" />
        <button
          data-shortcut="next"
          type="button"
          className="button-primary"
          disabled={!can('run_all') || Boolean(running) || runAll.isPending}
          onClick={() => runAll.mutate()}
        >
          Run all remaining{remaining > 0 ? ` (${remaining})` : ''}
        </button>
      </div>
      {running ? (
        <p className="note" data-testid="coding-progress">
          Running todo {running.position} of {todos.length}: “{running.title}”
          {done > 0 ? ` · ${done} done` : ''}
        </p>
      ) : null}
      {skipped > 0 ? (
        <p className="hint" data-testid="skipped-count">
          {skipped === 1 ? '1 todo is skipped' : `${skipped} todos are skipped`}: it will not run.
        </p>
      ) : null}
      {stopped ? (
        <div className="note" role="status" data-testid="stop-outcome">
          {stopped.status === 'failed'
            ? `You stopped “${stopped.title}”. Retry runs it again from before its changes; or skip it.`
            : `Stopped “${stopped.title}”: it had already ended (${stopped.status}).`}
        </div>
      ) : null}
      <ErrorNote error={runAll.error ?? execute.error ?? skip.error} />
      <ChecksBaseline task={task} />
      <div className="coding">
        <ol className="todo-list selectable">
          {todos.map((todo) => {
            const next = isNext(todo, todos);
            const runnable =
              can('execute_todo') && next && (todo.status === 'pending' || todo.status === 'failed');
            return (
              <li key={todo.id} className={todo.id === selected?.id ? 'selected' : undefined}>
                <button type="button" className="todo-pick" onClick={() => setSelectedId(todo.id)}>
                  <span className="todo-position">{todo.position}</span>
                  <span className="todo-name">
                    {todo.title}
                    <TodoOrigin todo={todo} />
                  </span>
                  {repairCount(todo) > 0 ? (
                    <Badge
                      value={`repair ${repairCount(todo)}`}
                      tone="warn"
                      title="Checks failed after its turn: the agent was asked to repair the code"
                    />
                  ) : null}
                  {stoppedByUser(todo) ? (
                    <Badge value="stopped by you" tone="muted" title="Retry runs it again; or skip it." />
                  ) : (
                    <Badge value={todo.status} />
                  )}
                </button>
                {todo.usage ? (
                  <div className="hint" data-testid="todo-usage" title={usageWords(todo.usage).title}>
                    {usageWords(todo.usage).text}
                  </div>
                ) : null}
                {todo.error ? (
                  <div className={stoppedByUser(todo) ? 'hint' : 'error-text'}>{todo.error}</div>
                ) : null}
                <div className="todo-actions">
                  {todo.status === 'running' && todo.session_id ? (
                    <StopButton
                      sessionId={todo.session_id}
                      what={`todo ${todo.position}`}
                      onStopped={() => {
                        setStoppedId(todo.id);
                        setSelectedId(todo.id);
                      }}
                    />
                  ) : null}
                  {runnable ? (
                    <button
                      type="button"
                      className="button-secondary"
                      disabled={execute.isPending || Boolean(running)}
                      onClick={() => {
                        setSelectedId(todo.id);
                        setStoppedId(null);
                        execute.mutate(todo.id);
                      }}
                    >
                      {todo.status === 'failed' ? 'Retry' : 'Execute'}
                    </button>
                  ) : null}
                  {can('skip_todo') && (todo.status === 'pending' || todo.status === 'failed') ? (
                    <button
                      type="button"
                      className="button-quiet"
                      disabled={skip.isPending}
                      aria-label={`Skip todo ${todo.position}`}
                      onClick={() => skip.mutate(todo.id)}
                    >
                      Skip
                    </button>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ol>
        <div className="coding-detail">
          {selected ? (
            <>
              <h3>{selected.title}</h3>
              {selected.description ? <p className="pre muted">{selected.description}</p> : null}
              {selected.session_id ? (
                <SessionView
                  key={selected.session_id}
                  sessionId={selected.session_id}
                  title="Session"
                  onStatus={refresh}
                  onEntry={onEntry}
                  stoppable={false}
                />
              ) : (
                <Empty>Not run yet.</Empty>
              )}
              {selected.status === 'running' && selected.session_id ? (
                <MessageBox
                  label="Message to the agent"
                  placeholder="e.g. Use the existing logger instead. It is read when the current turn ends, before this todo is done."
                  pending={steer.isPending}
                  error={steer.error}
                  onSend={(message) => steer.mutate({ sessionId: selected.session_id ?? '', message })}
                />
              ) : null}
              <TodoCheckRuns todo={selected} />
              {selected.status !== 'pending' ? <TodoDiffPanel todo={selected} changes={changes} /> : null}
            </>
          ) : (
            <Empty>No todos.</Empty>
          )}
        </div>
      </div>
    </section>
  );
}

// Tool kinds whose calls may change the workspace (a command may write files too).
const changingKinds = new Set(['file_edit', 'command', 'mcp', 'other']);

/** The todo's diff, read when it is shown, when its status changes and when its session edits (`changes`). */
function TodoDiffPanel({ todo, changes }: { todo: Todo; changes: number }) {
  const diff = useQuery<TodoDiff, ApiError>({
    queryKey: ['todo-diff', todo.id, todo.status, todo.status === 'running' ? changes : 0],
    queryFn: () => api.todos.diff(todo.id),
    // While the next read is on its way, the last one of this todo stays on screen.
    placeholderData: (previous) => (previous?.todo_id === todo.id ? previous : undefined),
  });
  return (
    <section className="diff-panel" aria-label="Todo diff">
      <h4>Changes {diff.data?.live ? <span className="badge badge-busy">live</span> : null}</h4>
      {diff.isPending ? <Loading what="diff" /> : null}
      <ErrorNote error={diff.error} />
      {diff.data ? <DiffViewer diffs={diff.data.repositories} /> : null}
    </section>
  );
}
