import type {
  CheckpointSummary,
  Run,
  RunDetail,
  RunMetrics,
  Step,
  Timeline,
  TimelineEntry,
} from '@keel/protocol/runtime';
import { finishedStatuses } from '@keel/protocol/runtime/names';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiError } from '../../api/errors.ts';
import { Badge, Empty, ErrorNote, Loading } from '../../components/status.tsx';
import { keelWeb } from '../api/keel-web.ts';
import { clockTime, formatDuration } from '../format.ts';
import { ArtifactView } from './artifact-view.tsx';
import { Elapsed } from './elapsed.tsx';
import { RunLink } from './run-link.tsx';

const stepNames: Record<Step['kind'], string> = {
  model_turn: 'Model turn',
  tool_batch: 'Tools',
  context: 'Context trimmed',
  tool: 'Tool node',
  approval: 'Approval',
  gate: 'Quality gate',
  node: 'Node',
};

/**
 * `GET /runtime/runs/{id}/timeline` and `/metrics`: the run's steps, checkpoints (each forks a new run from
 * there), approvals, artifacts and sub-agents (each opens its run) in time order, under a summary of its
 * figures. Loaded on first use.
 */
export default function RunTimeline({
  run,
  onOpenRun,
}: {
  run: RunDetail;
  onOpenRun: (runId: string) => void;
}) {
  const active = !finishedStatuses.includes(run.status);
  const timeline = useQuery<Timeline, ApiError>({
    queryKey: ['timeline', run.id, run.last_seq, run.status],
    queryFn: () => keelWeb.runs.timeline(run.id),
    placeholderData: (previous) => previous,
  });
  const metrics = useQuery<RunMetrics, ApiError>({
    queryKey: ['metrics', run.id, run.last_seq, run.status],
    queryFn: () => keelWeb.runs.metrics(run.id),
    placeholderData: (previous) => previous,
    refetchInterval: active ? 5000 : false,
  });
  const entries = timeline.data?.entries ?? [];
  return (
    <section className="run-timeline" aria-label="Timeline">
      {metrics.data ? <MetricsSummary metrics={metrics.data} /> : null}
      <ErrorNote error={metrics.error} />
      {timeline.isPending ? <Loading what="timeline" /> : null}
      <ErrorNote error={timeline.error} />
      {timeline.data && entries.length === 0 ? <Empty>No steps yet.</Empty> : null}
      <ol className="timeline">
        {entries.map((entry) => (
          <li key={`${entry.type}-${entry.id}`} className={`tl tl-${entry.type}`} data-type={entry.type}>
            <time className="tl-time hint" dateTime={entry.at}>
              {clockTime(entry.at)}
            </time>
            <div className="tl-body">
              <TimelineRow entry={entry} onOpenRun={onOpenRun} />
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

function TimelineRow({ entry, onOpenRun }: { entry: TimelineEntry; onOpenRun: (runId: string) => void }) {
  switch (entry.type) {
    case 'step': {
      const tools = Array.isArray(entry.detail.tool_calls) ? (entry.detail.tool_calls as string[]) : [];
      return (
        <>
          <span className="tl-kind">{stepNames[entry.kind]}</span> <Badge value={entry.status} />{' '}
          {tools.length ? <code className="hint">{tools.join(', ')}</code> : null}{' '}
          <span className="hint">
            {entry.ended_at ? (
              formatDuration(Date.parse(entry.ended_at) - Date.parse(entry.started_at))
            ) : entry.status === 'running' ? (
              <Elapsed since={entry.started_at} />
            ) : null}
            {entry.attempt > 1 ? ` · attempt ${entry.attempt}` : ''}
          </span>
          {entry.error ? (
            <div className="t-error">
              <strong>{entry.error.code}</strong> {entry.error.message}
            </div>
          ) : null}
        </>
      );
    }
    case 'checkpoint':
      return <CheckpointRow checkpoint={entry} onOpenRun={onOpenRun} />;
    case 'approval':
      return (
        <>
          <span className="tl-kind">{entry.kind === 'question' ? 'Question' : 'Approval'}</span>{' '}
          <Badge value={entry.status} /> <span>{entry.prompt}</span>
          {entry.answer ? <span className="hint"> — {entry.answer}</span> : null}
        </>
      );
    case 'artifact':
      return (
        <>
          <span className="tl-kind">Artifact</span>
          <ArtifactView artifact={entry} />
        </>
      );
    case 'sub_agent':
      return (
        <>
          <span className="tl-kind">Sub-agent</span> <Badge value={entry.status} />{' '}
          <span className="hint">{entry.agent_type}</span> <span>{entry.task}</span>{' '}
          <span className="hint">
            {entry.ended_at ? formatDuration(Date.parse(entry.ended_at) - Date.parse(entry.at)) : null}
          </span>{' '}
          <RunLink runId={entry.id} onOpenRun={onOpenRun}>
            Open its run {entry.id} →
          </RunLink>
        </>
      );
  }
}

function CheckpointRow({
  checkpoint,
  onOpenRun,
}: {
  checkpoint: CheckpointSummary;
  onOpenRun: (runId: string) => void;
}) {
  const queryClient = useQueryClient();
  const fork = useMutation<Run, ApiError, void>({
    mutationFn: () => keelWeb.runs.fork(checkpoint.id),
    onSuccess: (run) => {
      void queryClient.invalidateQueries({ queryKey: ['runs'] });
      onOpenRun(run.id);
    },
  });
  return (
    <>
      <span className="tl-kind">Checkpoint</span> <code className="hint">{checkpoint.id}</code>{' '}
      <span className="hint">after event {checkpoint.seq}</span>{' '}
      <button
        type="button"
        className="button-link"
        disabled={fork.isPending}
        onClick={() => fork.mutate()}
        aria-label={`Fork from checkpoint ${checkpoint.id}`}
      >
        {fork.isPending ? 'Forking…' : 'Fork from here'}
      </button>
      <ErrorNote error={fork.error} />
    </>
  );
}

function MetricsSummary({ metrics }: { metrics: RunMetrics }) {
  const tools = Object.entries(metrics.tools);
  const facts: [string, string][] = [
    ['Duration', metrics.duration_ms === null ? '—' : formatDuration(metrics.duration_ms)],
    ['Model turns', String(metrics.steps.model_turn ?? 0)],
    ['Tool calls', String(tools.reduce((sum, [, count]) => sum + count, 0))],
    ['Retries', String(metrics.retries.run + metrics.retries.events)],
    ['Approvals', String(metrics.approvals)],
    ['Checkpoints', String(metrics.checkpoints)],
    ['Artifacts', String(metrics.artifacts)],
  ];
  return (
    <div className="metrics">
      <dl className="facts">
        {facts.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {tools.length ? (
        <p className="hint">{tools.map(([name, count]) => `${name} × ${count}`).join(' · ')}</p>
      ) : null}
    </div>
  );
}
