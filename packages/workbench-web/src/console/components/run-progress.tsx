import type { RunDetail, Step } from '@keel/protocol/runtime';
import { Elapsed } from './elapsed.tsx';

/** The step a running run is in, if any. */
export function currentStep(run: RunDetail): Step | undefined {
  return run.status === 'running' ? run.steps.findLast((step) => step.status === 'running') : undefined;
}

function stepText(step: Step): string {
  switch (step.kind) {
    case 'model_turn':
      return 'The model is answering';
    case 'tool_batch': {
      const calls = Array.isArray(step.detail.tool_calls) ? (step.detail.tool_calls as string[]) : [];
      return calls.length ? `Running ${calls.join(', ')}` : 'Running tools';
    }
    case 'gate':
      return 'Checking the quality gate';
    case 'approval':
      return 'Asking for an approval';
    default:
      return `Running ${step.node_id}`;
  }
}

/** Where a run that is not final stands, at the end of its transcript: the current step and its time. */
export function RunProgress({ run }: { run: RunDetail }) {
  const step = currentStep(run);
  switch (run.status) {
    case 'queued':
      return (
        <div className="run-progress" role="status">
          <span className="spinner" aria-hidden="true" /> Queued: waiting for a worker…
        </div>
      );
    case 'running':
      return (
        <div className="run-progress" role="status" data-step={step?.kind}>
          <span className="spinner" aria-hidden="true" /> {step ? stepText(step) : 'Starting'}…{' '}
          {step ? (
            <span className="hint">
              <Elapsed since={step.started_at} />
            </span>
          ) : null}
        </div>
      );
    case 'waiting':
      return (
        <div className="run-progress waiting" role="status">
          Waiting for you: approve, reject or answer above. The run holds no worker meanwhile.
        </div>
      );
    case 'paused':
      return (
        <div className="run-progress paused" role="status">
          Paused at a step boundary: Resume continues it from its checkpoint.
        </div>
      );
    default:
      return null;
  }
}
