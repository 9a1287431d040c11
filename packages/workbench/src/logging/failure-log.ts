import type { ProjectSnapshot, Session, SessionKind, Todo } from '@keel/protocol/workbench';
import type { LogFields, ServiceLog } from '@keel/service';
import type { Task } from '../tasks/index.ts';

/** What of a task the failure log compares (a listed task has it too). */
type TaskFacts = Pick<
  Task,
  'id' | 'project_id' | 'state' | 'error' | 'init' | 'review' | 'baseline' | 'merge_requests'
>;

interface ProjectSeen {
  status: ProjectSnapshot['status'];
  layers: Map<string, string>;
}

interface TaskSeen {
  project: string;
  error: string | null;
  steps: Map<string, string>;
  /** `round/status` of its review. */
  review: string | null;
  /** `started_at/status` of its checks baseline. */
  baseline: string | null;
  /** Per merge request URL: its last read's error and checks state. */
  mergeRequests: Map<string, { error: string | null; checks: string | null }>;
}

/**
 * Sessions whose failure the record they work for also records (a knowledge layer, an init step, a todo, a
 * review), with more ids: logged there at `warn`, and here only at `debug`.
 */
const recordedElsewhere = new Set<SessionKind>(['knowledge', 'task_init', 'coding', 'reviewer']);

/**
 * The workbench's background failures on its log. It is told every new state of a project (with its
 * knowledge layers), a task, a todo and a session, as they are written, compares it with the last one it
 * saw, and logs each move INTO failure once: a knowledge layer or a project failed, an init step, a
 * review or a checks baseline failed, a task took an error, a merge request could not be read or its
 * checks failed, a todo failed (with its `error_code`), a session's turn failed. Each line names the
 * records' ids (`project`, `task`, `todo`, `session`).
 *
 * A project, task or todo seen for the first time is where its story starts here: its failures from before
 * (an earlier run of the service) are not logged again when something else of it changes. Tasks are told
 * at the start (`knownTasks`), so a merge request still unreadable after a restart is not news either. A
 * session's failure is always news: a session is only written failed when it fails.
 */
export class FailureLog {
  readonly #log: ServiceLog;
  readonly #projects = new Map<string, ProjectSeen>();
  readonly #tasks = new Map<string, TaskSeen>();
  readonly #todos = new Map<string, Todo['status']>();
  readonly #sessions = new Map<string, Session['status']>();

  constructor(log: ServiceLog) {
    this.#log = log;
  }

  project(snapshot: ProjectSnapshot): void {
    const seen: ProjectSeen = {
      status: snapshot.status,
      layers: new Map(snapshot.knowledge.map((each) => [`${each.repository}/${each.layer}`, each.status])),
    };
    const before = this.#projects.get(snapshot.id);
    this.#projects.set(snapshot.id, seen);
    if (!before) return;
    for (const layer of snapshot.knowledge) {
      if (layer.status !== 'failed' || before.layers.get(`${layer.repository}/${layer.layer}`) === 'failed')
        continue;
      this.#log.warn('knowledge layer failed', {
        project: snapshot.id,
        repository: layer.repository,
        layer: layer.layer,
        error: layer.error,
      });
    }
    if (snapshot.status === 'FAILED' && before.status !== 'FAILED')
      this.#log.warn('project failed', { project: snapshot.id, error: snapshot.error });
  }

  /** The tasks as the service starts: what they hold already is not news. */
  knownTasks(tasks: readonly TaskFacts[]): void {
    for (const task of tasks) this.#tasks.set(task.id, taskSeen(task));
  }

  task(task: TaskFacts): void {
    const seen = taskSeen(task);
    const before = this.#tasks.get(task.id);
    this.#tasks.set(task.id, seen);
    if (!before) return;
    const ids = { project: task.project_id, task: task.id };
    for (const step of task.init.steps) {
      if (step.status === 'failed' && before.steps.get(step.name) !== 'failed')
        this.#log.warn('init step failed', { ...ids, step: step.name, error: step.error });
    }
    const { review, baseline } = task;
    if (review?.status === 'failed' && seen.review !== before.review) {
      this.#log.warn('review failed', {
        ...ids,
        round: review.round,
        session: review.session_id,
        error: review.error,
      });
    }
    if (baseline?.status === 'failed' && seen.baseline !== before.baseline)
      this.#log.warn('checks baseline failed', { ...ids, error: baseline.error });
    for (const each of task.merge_requests ?? []) {
      const last = before.mergeRequests.get(each.url);
      const where = { ...ids, repository: each.repository, url: each.url };
      if (each.error && each.error !== last?.error)
        this.#log.warn('merge request could not be read', { ...where, error: each.error });
      if (each.status?.checks_state === 'failed' && last?.checks !== 'failed')
        this.#log.info('merge request checks failed', where);
    }
    if (task.error && task.error !== before.error)
      this.#log.warn('task error', { ...ids, state: task.state, error: task.error });
  }

  todo(todo: Todo): void {
    const before = this.#todos.get(todo.id);
    this.#todos.set(todo.id, todo.status);
    // STOPPED: the user stopped it, which is no failure of the work.
    if (!before || before === 'failed' || todo.status !== 'failed' || todo.error_code === 'STOPPED') return;
    this.#log.warn('todo failed', {
      project: this.#tasks.get(todo.task_id)?.project,
      task: todo.task_id,
      todo: todo.id,
      session: todo.session_id,
      error_code: todo.error_code,
      error: todo.error,
    });
  }

  session(session: Session): void {
    const before = this.#sessions.get(session.id);
    this.#sessions.set(session.id, session.status);
    if (session.status !== 'failed' || before === 'failed') return;
    const fields: LogFields = {
      session: session.id,
      kind: session.kind,
      owner: session.owner_id,
      code: session.error?.code,
      error: session.error?.message,
    };
    if (recordedElsewhere.has(session.kind)) this.#log.debug('session failed', fields);
    else this.#log.warn('session failed', fields);
  }
}

function taskSeen(task: TaskFacts): TaskSeen {
  return {
    project: task.project_id,
    error: task.error,
    steps: new Map(task.init.steps.map((step) => [step.name, step.status])),
    review: task.review ? `${task.review.round}/${task.review.status}` : null,
    baseline: task.baseline ? `${task.baseline.started_at}/${task.baseline.status}` : null,
    mergeRequests: new Map(
      (task.merge_requests ?? []).map((each) => [
        each.url,
        { error: each.error, checks: each.status?.checks_state ?? null },
      ]),
    ),
  };
}
