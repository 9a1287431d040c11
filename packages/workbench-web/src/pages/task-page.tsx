import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api/client.ts';
import type { ApiError } from '../api/errors.ts';
import type { Project, Session, Task, TaskDiff, TaskState, Todo, TodoDiff } from '../api/types.ts';
import { DiffViewer, Markdown } from '../components/lazy.tsx';
import { MessageBox } from '../components/message-box.tsx';
import { SessionView } from '../components/session-view.tsx';
import { Badge, Empty, ErrorNote, Loading } from '../components/status.tsx';

const stages = [
  { number: '01', name: 'Initialization' },
  { number: '02', name: 'Plan' },
  { number: '03', name: 'Todos' },
  { number: '04', name: 'Coding' },
  { number: '05', name: 'Review' },
] as const;

const stageOfState: Record<Exclude<TaskState, 'CANCELLED'>, number> = {
  CREATED: 0,
  INITIALIZING: 0,
  PLANNING: 1,
  PLAN_LOCKED: 2,
  TODO_READY: 2,
  CODING: 3,
  REVIEWING: 4,
  DONE: 4,
};

function stageOf(task: Task): number {
  const state = task.state === 'CANCELLED' ? (task.cancelled_from ?? 'CREATED') : task.state;
  return state === 'CANCELLED' ? 0 : stageOfState[state];
}

/** How often to look at the task again: often while the service works on it, rarely otherwise. */
function pollInterval(task: Task | undefined): number | false {
  if (!task) return false;
  if (task.state === 'DONE' || task.state === 'CANCELLED') return false;
  const working =
    (task.state === 'INITIALIZING' && task.init.status === 'running') ||
    task.state === 'PLAN_LOCKED' ||
    task.todos.some((todo) => todo.status === 'running');
  return working ? 1_500 : 4_000;
}

/** Puts a task the service answered into the cache (an action's answer is the task as it now is). */
function storeTask(queryClient: QueryClient, task: Task) {
  queryClient.setQueryData(['task', task.id], task);
  void queryClient.invalidateQueries({ queryKey: ['tasks'] });
}

export default function TaskPage() {
  const { id = '' } = useParams();
  const task = useQuery<Task, ApiError>({
    queryKey: ['task', id],
    queryFn: () => api.tasks.get(id),
    refetchInterval: (query) => pollInterval(query.state.data),
  });
  const project = useQuery<Project, ApiError>({
    queryKey: ['project', task.data?.project_id],
    queryFn: () => api.projects.get(task.data?.project_id ?? ''),
    enabled: Boolean(task.data?.project_id),
  });
  const [viewed, setViewed] = useState<number | null>(null);

  if (task.isPending) return <Loading what="task" />;
  if (task.error) return <ErrorNote error={task.error} />;
  const data = task.data;
  const current = stageOf(data);
  const shown = viewed !== null && viewed <= current ? viewed : current;

  return (
    <div className="page">
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to="/tasks">Tasks</Link> /{' '}
        {project.data ? <Link to={`/projects/${project.data.id}`}>{project.data.name}</Link> : '…'} /{' '}
        <span>{data.id}</span>
      </nav>
      <TaskHeader task={data} />
      <ol className="stepper" aria-label="Stages">
        {stages.map((stage, index) => {
          const state =
            index < current || data.state === 'DONE' ? 'done' : index === current ? 'current' : 'todo';
          return (
            <li key={stage.number} className={`step step-${state} ${index === shown ? 'shown' : ''}`}>
              <button
                type="button"
                disabled={index > current}
                aria-current={index === current ? 'step' : undefined}
                onClick={() => setViewed(index)}
              >
                <span className="step-number">{stage.number}</span>
                <span className="step-name">{stage.name}</span>
              </button>
            </li>
          );
        })}
      </ol>
      {shown === 0 ? <InitStage task={data} /> : null}
      {shown === 1 ? <PlanStage task={data} /> : null}
      {shown === 2 ? <TodosStage task={data} /> : null}
      {shown === 3 ? <CodingStage task={data} /> : null}
      {shown === 4 ? <ReviewStage task={data} /> : null}
    </div>
  );
}

function TaskHeader({ task }: { task: Task }) {
  const queryClient = useQueryClient();
  const can = (action: string) => task.allowed_actions.includes(action);
  const cancel = useMutation<Task, ApiError, 'cancel' | 'reopen'>({
    mutationFn: (action) => (action === 'cancel' ? api.tasks.cancel(task.id) : api.tasks.reopen(task.id)),
    onSuccess: (next) => storeTask(queryClient, next),
  });
  const [firstLine, ...rest] = task.description.split('\n');
  return (
    <header className="task-head">
      <div className="page-head">
        <h1 className="task-title">{firstLine}</h1>
        <Badge value={task.state} />
        <div className="spacer" />
        {can('cancel') ? (
          <button
            type="button"
            className="button-quiet"
            disabled={cancel.isPending}
            onClick={() => {
              if (window.confirm('Cancel this task? Its running sessions stop.')) cancel.mutate('cancel');
            }}
          >
            Cancel task
          </button>
        ) : null}
        {can('reopen') ? (
          <button
            type="button"
            className="button-secondary"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate('reopen')}
          >
            Reopen
          </button>
        ) : null}
      </div>
      {rest.join('\n').trim() ? <p className="lede pre">{rest.join('\n').trim()}</p> : null}
      <dl className="facts">
        <div>
          <dt>Branch</dt>
          <dd>
            <code>{task.branch}</code>
          </dd>
        </div>
        <div>
          <dt>Runner</dt>
          <dd>{task.runner ?? 'default'}</dd>
        </div>
        {task.prd_links.length > 0 ? (
          <div>
            <dt>PRD</dt>
            <dd>
              {task.prd_links.map((link) => (
                <a key={link} href={link} target="_blank" rel="noreferrer" className="prd-link">
                  {link}
                </a>
              ))}
            </dd>
          </div>
        ) : null}
        {task.images.length > 0 ? (
          <div>
            <dt>Images</dt>
            <dd>{task.images.map((image) => image.filename ?? image.media_type).join(', ')}</dd>
          </div>
        ) : null}
        <div>
          <dt>Work directory</dt>
          <dd>
            <code>{task.work_dir}</code>
          </dd>
        </div>
      </dl>
      {task.error ? <div className="error-note">{task.error}</div> : null}
      <ErrorNote error={cancel.error} />
    </header>
  );
}

/** A mutation whose answer is a task, or `{task, …}`: the cache takes it at once. */
function useTaskAction<Input = void>(task: Task, run: (input: Input) => Promise<Task | { task: Task }>) {
  const queryClient = useQueryClient();
  return useMutation<Task | { task: Task }, ApiError, Input>({
    mutationFn: run,
    onSuccess: (answer) => storeTask(queryClient, 'task' in answer ? answer.task : answer),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['task', task.id] }),
  });
}

/** Refreshes the task when a session it shows finishes (its answer landed in the task). */
function useRefreshOnFinish(task: Task) {
  const queryClient = useQueryClient();
  return (session: Session) => {
    if (session.status !== 'running' && session.status !== 'queued') {
      void queryClient.invalidateQueries({ queryKey: ['task', task.id] });
    }
  };
}

function InitStage({ task }: { task: Task }) {
  const can = (action: string) => task.allowed_actions.includes(action);
  const init = useTaskAction(task, () => api.tasks.init(task.id));
  const confirm = useTaskAction(task, () => api.tasks.confirmInit(task.id));
  const refresh = useRefreshOnFinish(task);
  const failed = task.init.status === 'failed';
  return (
    <section className="card stage" aria-labelledby="stage-title">
      <h2 id="stage-title">01 · Initialization</h2>
      <p className="hint">
        Copies every repository into the task's work directory on the task branch, syncs the skills and copies
        the project knowledge. No AI runs here.
      </p>
      {task.init.steps.length === 0 ? (
        <Empty>Not started.</Empty>
      ) : (
        <ul className="init-steps">
          {task.init.steps.map((step) => (
            <li key={step.name}>
              <Badge value={step.status} /> <code>{step.name}</code>
              {step.detail ? <span className="hint"> {step.detail}</span> : null}
              {step.error ? <div className="error-text">{step.error}</div> : null}
            </li>
          ))}
        </ul>
      )}
      <div className="stage-actions">
        <button
          type="button"
          className={task.init.status === 'done' ? 'button-secondary' : 'button-primary'}
          disabled={
            !can('init') || init.isPending || task.init.status === 'running' || task.init.status === 'done'
          }
          onClick={() => init.mutate()}
        >
          {failed ? 'Retry initialization' : 'Initialize'}
        </button>
        <button
          type="button"
          className="button-primary"
          disabled={!can('confirm_init') || task.init.status !== 'done' || confirm.isPending}
          onClick={() => confirm.mutate()}
        >
          Confirm and start planning →
        </button>
      </div>
      <ErrorNote error={init.error ?? confirm.error} />
      {task.init_session_id ? (
        <details className="log-details" open={failed}>
          <summary>Initialization log</summary>
          <SessionView sessionId={task.init_session_id} title="Initialization log" onStatus={refresh} />
        </details>
      ) : null}
    </section>
  );
}

function PlanStage({ task }: { task: Task }) {
  const can = (action: string) => task.allowed_actions.includes(action);
  const plan = useTaskAction<string | undefined>(task, (message) => api.tasks.plan(task.id, message));
  const lock = useTaskAction(task, () => api.tasks.lockPlan(task.id));
  const refresh = useRefreshOnFinish(task);
  return (
    <section className="card stage" aria-labelledby="stage-title">
      <h2 id="stage-title">02 · Technical plan</h2>
      <div className="stage-split">
        <div>
          <div className="page-head">
            <h3>plan.md</h3>
            <div className="spacer" />
            {task.plan === null && !task.plan_session_id ? (
              <button
                type="button"
                className="button-primary"
                disabled={!can('plan') || plan.isPending}
                onClick={() => plan.mutate(undefined)}
              >
                Draft the plan
              </button>
            ) : null}
            <button
              type="button"
              className="button-primary"
              disabled={!can('lock_plan') || !task.plan || lock.isPending}
              onClick={() => lock.mutate()}
            >
              Lock plan →
            </button>
          </div>
          <ErrorNote error={lock.error} />
          {task.plan ? (
            <div className="doc">
              <Markdown>{task.plan}</Markdown>
            </div>
          ) : (
            <Empty>{task.plan_session_id ? 'The plan is being written…' : 'No plan yet: draft it.'}</Empty>
          )}
          <MessageBox
            label="Refine the plan"
            placeholder="e.g. Keep the old endpoint working; add a migration step."
            disabled={!can('plan') || !task.plan_session_id}
            pending={plan.isPending}
            error={plan.error}
            onSend={(message) => plan.mutate(message)}
          />
        </div>
        <div>
          {task.plan_session_id ? (
            <SessionView sessionId={task.plan_session_id} title="Plan conversation" onStatus={refresh} />
          ) : (
            <Empty>The plan conversation starts when you draft the plan.</Empty>
          )}
        </div>
      </div>
    </section>
  );
}

function TodosStage({ task }: { task: Task }) {
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

function isNext(todo: Todo, todos: Todo[]): boolean {
  return todos
    .filter((each) => each.position < todo.position)
    .every((each) => each.status === 'done' || each.status === 'skipped');
}

function CodingStage({ task }: { task: Task }) {
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
  return (
    <section className="card stage" aria-labelledby="stage-title">
      <h2 id="stage-title">04 · Coding</h2>
      <div className="page-head">
        <p className="hint">Todos run strictly in order, each in its own session.</p>
        <div className="spacer" />
        <button
          type="button"
          className="button-primary"
          disabled={!can('run_all') || Boolean(running) || runAll.isPending}
          onClick={() => runAll.mutate()}
        >
          Run all remaining
        </button>
      </div>
      <ErrorNote error={runAll.error ?? execute.error ?? skip.error} />
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
                  <span className="todo-name">{todo.title}</span>
                  <Badge value={todo.status} />
                </button>
                {todo.error ? <div className="error-text">{todo.error}</div> : null}
                <div className="todo-actions">
                  {runnable ? (
                    <button
                      type="button"
                      className="button-secondary"
                      disabled={execute.isPending || Boolean(running)}
                      onClick={() => {
                        setSelectedId(todo.id);
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
                />
              ) : (
                <Empty>Not run yet.</Empty>
              )}
              {selected.status !== 'pending' ? <TodoDiffPanel todo={selected} /> : null}
            </>
          ) : (
            <Empty>No todos.</Empty>
          )}
        </div>
      </div>
    </section>
  );
}

function TodoDiffPanel({ todo }: { todo: Todo }) {
  const diff = useQuery<TodoDiff, ApiError>({
    queryKey: ['todo-diff', todo.id, todo.status],
    queryFn: () => api.todos.diff(todo.id),
    refetchInterval: todo.status === 'running' ? 3_000 : false,
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

function ReviewStage({ task }: { task: Task }) {
  const can = (action: string) => task.allowed_actions.includes(action);
  const diff = useQuery<TaskDiff, ApiError>({
    queryKey: ['task-diff', task.id, task.state],
    queryFn: () => api.tasks.diff(task.id),
  });
  const message = useTaskAction<string | undefined>(task, (text) => api.tasks.commitMessage(task.id, text));
  const submit = useTaskAction<{ title?: string }>(task, (input) => api.tasks.submitMr(task.id, input));
  const refresh = useRefreshOnFinish(task);
  const [title, setTitle] = useState('');
  return (
    <section className="card stage" aria-labelledby="stage-title">
      <h2 id="stage-title">05 · Code review</h2>
      <div className="stage-split">
        <div>
          <h3>Commit message</h3>
          {task.commit_message ? (
            <pre className="commit-message">{task.commit_message}</pre>
          ) : (
            <Empty>
              {task.review_session_id ? 'The commit message is being written…' : 'No commit message yet.'}
            </Empty>
          )}
          {!task.commit_message && !task.review_session_id ? (
            <button
              type="button"
              className="button-secondary"
              disabled={!can('commit_message') || message.isPending}
              onClick={() => message.mutate(undefined)}
            >
              Write the commit message
            </button>
          ) : null}
          <MessageBox
            label="Adjust the commit message"
            placeholder="e.g. Mention the migration in the body."
            disabled={!can('commit_message')}
            pending={message.isPending}
            error={message.error}
            onSend={(text) => message.mutate(text)}
          />
          {task.state === 'DONE' ? null : (
            <form
              className="submit-mr"
              onSubmit={(event) => {
                event.preventDefault();
                submit.mutate(title.trim() ? { title: title.trim() } : {});
              }}
            >
              <label className="field">
                <span>Merge request title (default: the commit subject)</span>
                <input
                  value={title}
                  onChange={(event) => setTitle(event.target.value)}
                  disabled={!can('submit_mr')}
                />
              </label>
              <button
                type="submit"
                className="button-primary"
                disabled={!can('submit_mr') || !task.commit_message || submit.isPending}
              >
                {submit.isPending ? 'Pushing…' : 'Commit, push and open MR'}
              </button>
              <ErrorNote error={submit.error} />
            </form>
          )}
          {task.results ? (
            <div className={task.state === 'DONE' ? 'submitted' : undefined}>
              <h3>{task.state === 'DONE' ? 'Submitted' : 'Submitted so far'}</h3>
              <ul className="results" aria-label="Merge requests">
                {task.results.map((result) => (
                  <li key={result.repository} className="result">
                    <strong>{result.repository}</strong>{' '}
                    {!result.changed ? (
                      <span className="hint">no changes</span>
                    ) : result.error ? (
                      <span className="error-text">
                        {result.error.code}: {result.error.message}
                      </span>
                    ) : (
                      <>
                        <code>{result.branch}</code>{' '}
                        {result.mr_url ? (
                          <a href={result.mr_url} target="_blank" rel="noreferrer">
                            merge request ↗
                          </a>
                        ) : result.compare_url ? (
                          <a href={result.compare_url} target="_blank" rel="noreferrer">
                            compare ↗
                          </a>
                        ) : (
                          <span className="hint">pushed</span>
                        )}
                      </>
                    )}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
        <div>
          {task.review_session_id ? (
            <SessionView sessionId={task.review_session_id} title="Review conversation" onStatus={refresh} />
          ) : null}
        </div>
      </div>
      <h3>
        Changes across repositories{' '}
        {diff.data ? (
          <span className="hint">
            <span className="add">+{diff.data.additions}</span>{' '}
            <span className="del">−{diff.data.deletions}</span>
          </span>
        ) : null}
      </h3>
      {diff.isPending ? <Loading what="diff" /> : null}
      <ErrorNote error={diff.error} />
      {diff.data ? <DiffViewer diffs={diff.data.repositories} /> : null}
    </section>
  );
}
