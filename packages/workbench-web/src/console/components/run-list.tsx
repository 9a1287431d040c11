import type { RunPage, RunStatus } from '@keel/protocol/runtime';
import { runStatuses } from '@keel/protocol/runtime/names';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ApiError } from '../../api/errors.ts';
import { Badge, Empty, ErrorNote, Loading } from '../../components/status.tsx';
import { keelWeb } from '../api/keel-web.ts';
import { formatTokens, timeAgo } from '../format.ts';
import { runLabel } from '../run-label.ts';

/** The store's runs, newest first, by status, a page at a time; each opens in the main pane. */
export function RunList({ selected, onOpen }: { selected: string | null; onOpen: (runId: string) => void }) {
  const [status, setStatus] = useState<RunStatus | ''>('');
  const runs = useInfiniteQuery<RunPage, ApiError>({
    queryKey: ['runs', status],
    queryFn: ({ pageParam }) =>
      keelWeb.runs.list({
        limit: 20,
        ...(status ? { status } : {}),
        ...(pageParam ? { cursor: pageParam as string } : {}),
      }),
    initialPageParam: '',
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    refetchInterval: 3000,
  });
  const list = runs.data?.pages.flatMap((page) => page.runs) ?? [];
  return (
    <section className="side-section" aria-label="Runs">
      <div className="side-head">
        <h2>Runs</h2>
        <label className="inline">
          <span className="sr-only">Show runs that are</span>
          <select value={status} onChange={(event) => setStatus(event.target.value as RunStatus | '')}>
            <option value="">all</option>
            {runStatuses.map((each) => (
              <option key={each} value={each}>
                {each}
              </option>
            ))}
          </select>
        </label>
      </div>
      {runs.isPending ? <Loading what="runs" /> : null}
      {runs.error?.status === 401 ? null : <ErrorNote error={runs.error} />}
      {runs.data && list.length === 0 ? (
        <Empty>{status ? `No ${status} runs.` : 'No runs yet: start one above.'}</Empty>
      ) : null}
      <ul className="run-list">
        {list.map((run) => (
          <li
            key={run.id}
            data-run-id={run.id}
            data-sub-agent={run.agent ? run.agent.type : undefined}
            className={`${run.id === selected ? 'selected' : ''} ${run.agent ? 'sub-agent' : ''}`.trim()}
          >
            <a
              href={`?run=${encodeURIComponent(run.id)}`}
              aria-current={run.id === selected ? 'page' : undefined}
              onClick={(event) => {
                if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                event.preventDefault();
                onOpen(run.id);
              }}
            >
              <span className="run-list-top">
                <Badge value={run.status} />
                <span className="hint">{timeAgo(run.created_at)}</span>
              </span>
              <span className="run-list-prompt" title={run.prompt}>
                {runLabel(run)}
              </span>
              <span className="hint run-list-meta">
                {run.id}
                {run.usage.total_tokens ? ` · ${formatTokens(run.usage.total_tokens)}` : ''}
                {run.forked_from ? ' · fork' : ''}
                {run.parent_run_id ? ` · of ${run.parent_run_id}` : ''}
                {run.attempt > 1 ? ` · attempt ${run.attempt}` : ''}
              </span>
            </a>
          </li>
        ))}
      </ul>
      {runs.hasNextPage ? (
        <button
          type="button"
          className="button-quiet load-more"
          disabled={runs.isFetchingNextPage}
          onClick={() => void runs.fetchNextPage()}
        >
          {runs.isFetchingNextPage ? 'Loading…' : 'Older runs'}
        </button>
      ) : null}
    </section>
  );
}
