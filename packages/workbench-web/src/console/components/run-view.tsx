import type { RunDetail } from '@keel/protocol/runtime';
import { finishedStatuses } from '@keel/protocol/runtime/names';
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, lazy, Suspense, useState } from 'react';
import type { ApiError } from '../../api/errors.ts';
import { ErrorNote, Loading } from '../../components/status.tsx';
import { keelWeb } from '../api/keel-web.ts';
import { RunControls } from './run-controls.tsx';
import { RunHeader } from './run-header.tsx';
import { RunTranscript } from './run-transcript.tsx';

const RunTimeline = lazy(() => import('./run-timeline.tsx'));

// The run's panes: its sub-agents are blocks of the transcript and entries of the timeline.
const tabs = [
  { id: 'transcript', label: 'Transcript' },
  { id: 'timeline', label: 'Timeline' },
] as const;
type Tab = (typeof tabs)[number]['id'];

/** One run: its header and controls, then its transcript or its timeline. Loaded on first use. */
export default function RunView({ runId, onOpenRun }: { runId: string; onOpenRun: (runId: string) => void }) {
  const [tab, setTab] = useState<Tab>('transcript');
  const detail = useQuery<RunDetail, ApiError>({
    queryKey: ['run', runId],
    queryFn: () => keelWeb.runs.get(runId),
    // Status, usage and the current step, while the run can still change.
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status && finishedStatuses.includes(status) ? false : 1500;
    },
  });
  if (detail.isPending) return <Loading what="run" />;
  if (!detail.data) {
    return (
      <div className="card run-missing">
        <h2>This run cannot be shown</h2>
        <ErrorNote error={detail.error} />
        <button type="button" className="button-secondary" onClick={() => onOpenRun('')}>
          Back to the runs
        </button>
      </div>
    );
  }
  const run = detail.data;
  // Arrow keys move between the tabs, as in any tab list.
  function onTabKey(event: KeyboardEvent) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const next = tabs[(tabs.findIndex((each) => each.id === tab) + 1) % tabs.length];
    if (next) setTab(next.id);
    event.preventDefault();
  }
  return (
    <article className="run-view" aria-label={`Run ${run.id}`} data-run-id={run.id} data-status={run.status}>
      <RunHeader run={run} onOpenRun={onOpenRun} />
      <RunControls run={run} onOpenRun={onOpenRun} />
      <ErrorNote error={detail.error} />
      <div className="tabs run-tabs" role="tablist" aria-label="Run views" onKeyDown={onTabKey}>
        {tabs.map((each) => (
          <button
            key={each.id}
            type="button"
            role="tab"
            id={`tab-${each.id}`}
            aria-selected={tab === each.id}
            aria-controls={`pane-${each.id}`}
            tabIndex={tab === each.id ? 0 : -1}
            className={`tab ${tab === each.id ? 'is-active' : ''}`}
            onClick={() => setTab(each.id)}
          >
            {each.label}
          </button>
        ))}
      </div>
      {/* Both stay mounted: the transcript keeps following the run while the timeline is shown. */}
      <div
        role="tabpanel"
        id="pane-transcript"
        aria-labelledby="tab-transcript"
        hidden={tab !== 'transcript'}
        className="run-pane"
      >
        <RunTranscript run={run} onOpenRun={onOpenRun} />
      </div>
      <div
        role="tabpanel"
        id="pane-timeline"
        aria-labelledby="tab-timeline"
        hidden={tab !== 'timeline'}
        className="run-pane"
      >
        {tab === 'timeline' ? (
          <Suspense fallback={<Loading what="timeline" />}>
            <RunTimeline run={run} onOpenRun={onOpenRun} />
          </Suspense>
        ) : null}
      </div>
    </article>
  );
}
