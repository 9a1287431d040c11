import { api } from '../../api/client.ts';
import type { Task } from '../../api/types.ts';
import { Badge, ErrorNote } from '../../components/status.tsx';
import { RunSetupButton } from './run-setup-button.tsx';
import { useTaskAction } from './task-actions.ts';
import { TodoChecks } from './todo-checks.tsx';

/**
 * The task's checks baseline: the repositories' checks on the workspace before the todos changed it. A
 * check failing there does not fail todos; one that cannot run there is an environment problem. Taken by
 * itself before the first todo; taken again on request (after fixing the setup or editing a check).
 */
export function ChecksBaseline({ task }: { task: Task }) {
  const again = useTaskAction(task, () => api.tasks.baseline(task.id));
  const baseline = task.baseline;
  const problems = baseline?.results.filter((result) => result.outcome === 'environment').length ?? 0;
  const failing = baseline?.results.filter((result) => result.outcome === 'failed').length ?? 0;
  return (
    <section className="checks-baseline" aria-label="Checks baseline">
      <div className="page-head">
        <h3>Baseline</h3>
        {baseline ? <Badge value={baseline.status} /> : null}
        <p className="hint" data-testid="baseline-summary">
          {!baseline
            ? 'The checks run once on the untouched workspace before the first todo.'
            : baseline.status === 'running'
              ? 'Running the checks on the workspace before any change…'
              : baseline.status === 'failed'
                ? `Could not be taken: ${baseline.error ?? 'unknown error'}`
                : problems > 0
                  ? `${problems === 1 ? '1 check cannot' : `${problems} checks cannot`} run in the workspace: todos fail until it is fixed.`
                  : failing > 0
                    ? `${failing === 1 ? '1 check fails' : `${failing} checks fail`} before any change: not counted against the todos.`
                    : baseline.results.length > 0
                      ? 'Every check passes before any change.'
                      : 'No checks to run.'}
        </p>
        <div className="spacer" />
        <button
          type="button"
          className="button-secondary"
          disabled={
            !task.allowed_actions.includes('baseline') || again.isPending || baseline?.status === 'running'
          }
          onClick={() => again.mutate()}
        >
          Run baseline again
        </button>
        {problems > 0 ? <RunSetupButton task={task} /> : null}
      </div>
      <ErrorNote error={again.error} />
      {baseline && baseline.status !== 'running' ? (
        <TodoChecks checks={baseline.results} title="Before any change" />
      ) : null}
    </section>
  );
}
