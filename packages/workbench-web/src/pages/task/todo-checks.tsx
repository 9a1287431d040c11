import type { CheckResult, Task } from '../../api/types.ts';
import { Badge } from '../../components/status.tsx';

const outcomeTones = { passed: 'ok', failed: 'bad', environment: 'warn' } as const;

/** A result stored before outcomes existed says only whether it passed. */
function outcomeOf(check: CheckResult): CheckResult['outcome'] {
  return check.outcome ?? (check.passed ? 'passed' : 'failed');
}

/**
 * Checks with how each ended, its output behind a toggle (open when it did not pass: that is what the
 * user needs to read): a todo's, or the task's baseline. A check that could not run says what is missing;
 * one that already failed in the baseline says so (it does not count against the todo).
 */
export function TodoChecks({
  checks,
  title = 'Checks',
}: {
  checks: CheckResult[] | null | undefined;
  title?: string;
}) {
  if (!checks?.length) return null;
  return (
    <section className="todo-checks" aria-label={title}>
      <h4>{title}</h4>
      <ul>
        {checks.map((check) => {
          const outcome = outcomeOf(check);
          const before = outcome === 'failed' && check.baseline === 'failed';
          return (
            <li key={`${check.repository}/${check.name}`} data-testid="todo-check" data-outcome={outcome}>
              <details open={outcome !== 'passed'}>
                <summary>
                  <Badge
                    value={before ? 'failing before' : outcome}
                    tone={before ? 'muted' : outcomeTones[outcome]}
                  />{' '}
                  <strong>
                    {check.repository}: {check.name}
                  </strong>{' '}
                  <code>{check.command}</code>{' '}
                  <span className="hint">
                    {check.exit_code === null ? 'did not finish' : `exit ${check.exit_code}`} ·{' '}
                    {(check.duration_ms / 1000).toFixed(1)} s
                  </span>
                  {outcome === 'environment' && check.reason ? (
                    <div className="check-reason" data-testid="check-reason">
                      Cannot run here: {check.reason}. Not the change's fault: install what is missing or edit
                      the check in the project's settings.
                    </div>
                  ) : null}
                  {before ? (
                    <div className="hint" data-testid="check-failing-before">
                      Failing before any change (in the baseline): it does not count against this todo.
                    </div>
                  ) : null}
                </summary>
                <pre className="check-output">{check.output.trim() || '(no output)'}</pre>
              </details>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

type TaskTodo = Task['todos'][number];

/**
 * A todo's checks as a timeline when repair turns ran: each run (after the todo's turn, after repair 1…)
 * with how it ended and its own results, the last one open; a failure a repair fixed stays readable. One run:
 * just its checks.
 */
export function TodoCheckRuns({ todo }: { todo: TaskTodo }) {
  const runs = todo.check_runs ?? [];
  if (runs.length <= 1) return <TodoChecks checks={todo.checks} />;
  return (
    <section className="todo-checks" aria-label="Check runs">
      <h4>Checks, run by run</h4>
      <ol className="check-runs">
        {runs.map((run, index) => (
          <li key={run.at} data-testid="check-run" data-passed={run.passed}>
            <details open={index === runs.length - 1}>
              <summary>
                <Badge value={run.passed ? 'passed' : 'failed'} tone={run.passed ? 'ok' : 'bad'} />{' '}
                <strong>{run.repair === 0 ? "After the todo's turn" : `After repair ${run.repair}`}</strong>{' '}
                <span className="hint">{new Date(run.at).toLocaleTimeString()}</span>
              </summary>
              <TodoChecks
                checks={run.results}
                title={`Checks after ${run.repair === 0 ? 'the turn' : `repair ${run.repair}`}`}
              />
            </details>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** How many repair turns the todo has had (or is having) in its latest execution. */
export function repairCount(todo: TaskTodo): number {
  const runs = todo.check_runs ?? [];
  const last = runs.at(-1);
  const done = Math.max(0, ...runs.map((run) => run.repair));
  return todo.status === 'running' && last && !last.passed ? done + 1 : done;
}
