import type { RunDetail } from '@keel/protocol/runtime';
import { Badge } from '../../components/status.tsx';
import { formatCost, formatTokens } from '../format.ts';
import { runLabel } from '../run-label.ts';
import { Elapsed } from './elapsed.tsx';
import { RunLink } from './run-link.tsx';

/**
 * What the run is and where it stands: its prompt (a sub-agent's: its type and task), status, id, attempt,
 * tokens, cost, time and origin (the run it was forked from, or the parent that spawned it).
 */
export function RunHeader({ run, onOpenRun }: { run: RunDetail; onOpenRun: (runId: string) => void }) {
  return (
    <header className="run-head">
      <h1 className="run-title" title={run.prompt}>
        {runLabel(run)}
      </h1>
      {run.parent_run_id ? (
        <div className="run-parent" data-testid="run-parent">
          Sub-agent{run.agent ? <code className="hint"> {run.agent.agent_id}</code> : null} ·{' '}
          <RunLink runId={run.parent_run_id} onOpenRun={onOpenRun}>
            ← parent run {run.parent_run_id}
          </RunLink>
        </div>
      ) : null}
      <div className="run-facts" data-testid="run-facts">
        <span data-testid="run-status">
          <Badge value={run.status} />
        </span>
        {run.orphaned ? <Badge value="orphaned" title="Its worker stopped: Recover continues it." /> : null}
        <code className="hint">{run.id}</code>
        {run.attempt > 1 ? <span>attempt {run.attempt}</span> : null}
        <span>{formatTokens(run.usage.total_tokens)}</span>
        <span>{formatCost(run.cost_usd)}</span>
        {run.started_at ? (
          <span title="Time since it was first claimed">
            <Elapsed since={run.started_at} until={run.ended_at} />
          </span>
        ) : null}
        <code className="hint run-workdir" title="Working directory">
          {run.workdir}
        </code>
        {run.forked_from ? (
          <span>
            forked from{' '}
            <button type="button" className="button-link" onClick={() => onOpenRun(run.forked_from!.run_id)}>
              {run.forked_from.run_id}
            </button>
          </span>
        ) : null}
      </div>
      {run.error && run.status !== 'succeeded' ? (
        <div className="t-error" role="alert">
          <strong>{run.error.code}</strong> {run.error.message}
        </div>
      ) : null}
    </header>
  );
}
