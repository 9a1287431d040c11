import type { Checkpoint, Run, RunDetail, RunStatus } from '@keel/protocol/runtime';
import { finishedStatuses } from '@keel/protocol/runtime/names';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ApiError } from '../../api/errors.ts';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { ErrorNote } from '../../components/status.tsx';
import { keelWeb, type RunControl } from '../api/keel-web.ts';

/** Which statuses each control applies to (spec section 3; the server refuses the rest with 409 INVALID_STATE). */
const allowed: Record<Exclude<RunControl, 'recover'>, readonly RunStatus[]> = {
  pause: ['queued', 'running'],
  resume: ['paused', 'waiting'],
  cancel: ['queued', 'running', 'waiting', 'paused'],
  retry: ['failed', 'cancelled'],
};

type Action = RunControl | 'fork';

/**
 * Pause, resume, cancel (asked twice), retry, recover (an orphaned run only) and fork from the latest
 * checkpoint (any checkpoint forks from the timeline). A control's error shows under the bar.
 */
export function RunControls({ run, onOpenRun }: { run: RunDetail; onOpenRun: (runId: string) => void }) {
  const queryClient = useQueryClient();
  const [pauseAsked, setPauseAsked] = useState(false);
  const checkpoints = useQuery<Checkpoint[], ApiError>({
    queryKey: ['checkpoints', run.id, run.last_seq],
    queryFn: () => keelWeb.runs.checkpoints(run.id),
  });
  const latest = checkpoints.data?.at(-1);
  const act = useMutation<Run, ApiError, Action>({
    mutationFn: (action) =>
      action === 'fork' ? keelWeb.runs.fork(latest!.id) : keelWeb.runs[action](run.id),
    onSuccess: (answer, action) => {
      setPauseAsked(action === 'pause' && answer.status === 'running');
      void queryClient.invalidateQueries({ queryKey: ['run', run.id] });
      void queryClient.invalidateQueries({ queryKey: ['runs'] });
      void queryClient.invalidateQueries({ queryKey: ['approvals'] });
      if (action === 'fork') onOpenRun(answer.id);
    },
  });
  const busy = act.isPending;
  const label = (action: Action, idle: string, working: string) =>
    busy && act.variables === action ? working : idle;
  const button = (action: Exclude<RunControl, 'recover' | 'cancel'>, idle: string, working: string) => (
    <button
      type="button"
      className="button-secondary"
      disabled={busy || !allowed[action].includes(run.status)}
      onClick={() => act.mutate(action)}
    >
      {label(action, idle, working)}
    </button>
  );
  const final = finishedStatuses.includes(run.status);
  return (
    <div className="run-controls-wrap">
      <div className="run-controls" role="toolbar" aria-label="Run controls">
        {button('pause', 'Pause', 'Pausing…')}
        {button('resume', 'Resume', 'Resuming…')}
        {final ? null : (
          <ConfirmButton
            label="Cancel"
            question="Cancel this run?"
            confirm="Cancel run"
            dismiss="Keep it"
            pending={busy && act.variables === 'cancel'}
            onConfirm={() => act.mutate('cancel')}
          />
        )}
        {button('retry', 'Retry', 'Retrying…')}
        {run.orphaned ? (
          <button
            type="button"
            className="button-secondary"
            disabled={busy}
            onClick={() => act.mutate('recover')}
          >
            {label('recover', 'Recover', 'Recovering…')}
          </button>
        ) : null}
        <button
          type="button"
          className="button-secondary"
          disabled={busy || !latest}
          title={latest ? `A new run from checkpoint ${latest.id}` : 'No checkpoint yet'}
          onClick={() => act.mutate('fork')}
        >
          {label('fork', 'Fork', 'Forking…')}
        </button>
        {pauseAsked && run.status === 'running' ? (
          <span className="hint" role="status">
            Pause requested: it stops at the next step boundary.
          </span>
        ) : null}
      </div>
      <ErrorNote error={act.error} />
    </div>
  );
}
