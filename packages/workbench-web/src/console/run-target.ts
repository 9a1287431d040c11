/**
 * Where a run started from the form goes when it is started "in" a project or a task: the project's
 * directory and the project's (or the task's) session, so the run continues that conversation.
 */
export interface RunTarget {
  workdir: string;
  session_id?: string;
  /** What the form says the run is in ("project Shop", "task Checkout (branch feature/checkout)"). */
  label: string;
}
