import type { CheckResult } from '../../api/types.ts';
import { Badge } from '../../components/status.tsx';

/**
 * The checks run after a todo's last turn: each repository's command with how it ended, its output behind
 * a toggle (open when it failed: that is what the user needs to read).
 */
export function TodoChecks({ checks }: { checks: CheckResult[] | null | undefined }) {
  if (!checks?.length) return null;
  return (
    <section className="todo-checks" aria-label="Checks">
      <h4>Checks</h4>
      <ul>
        {checks.map((check) => (
          <li key={`${check.repository}/${check.name}`} data-testid="todo-check">
            <details open={!check.passed}>
              <summary>
                <Badge value={check.passed ? 'passed' : 'failed'} tone={check.passed ? 'ok' : 'bad'} />{' '}
                <strong>
                  {check.repository}: {check.name}
                </strong>{' '}
                <code>{check.command}</code>{' '}
                <span className="hint">
                  {check.exit_code === null ? 'did not finish' : `exit ${check.exit_code}`} ·{' '}
                  {(check.duration_ms / 1000).toFixed(1)} s
                </span>
              </summary>
              <pre className="check-output">{check.output.trim() || '(no output)'}</pre>
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}
