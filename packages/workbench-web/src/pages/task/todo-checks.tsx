import type { CheckResult } from '../../api/types.ts';
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
