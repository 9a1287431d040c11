import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { type ApiError, asApiError } from '../api/errors.ts';
import { mergeEntries } from '../api/transcript.ts';
import { followRunEvents } from './api/run-stream.ts';
import { runtimeApi } from './api/runtime-client.ts';
import { finishedStatuses, type RunEventRecord } from './api/runtime-types.ts';

// Events after which the run's status, usage or approvals have changed: read them again at once.
const changing = new Set([
  'interaction_request',
  'tool_result',
  'done',
  'error',
  'cancelled',
  'circuit_breaker',
]);

/**
 * A run's events, replayed from its first and then followed live over SSE; after a dropped connection the
 * stream resumes from the last seq received, and records merge by seq, so none is missed or shown twice.
 * `active` (the run is not final) restarts the follow when a control puts a finished run back in the queue.
 */
export function useRunEvents(runId: string, active: boolean) {
  const queryClient = useQueryClient();
  const [records, setRecords] = useState<RunEventRecord[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [trouble, setTrouble] = useState<ApiError | null>(null);
  const cursor = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `active` restarts the follow (see above)
  useEffect(() => {
    const controller = new AbortController();
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: ['run', runId] });
      void queryClient.invalidateQueries({ queryKey: ['approvals'] });
      void queryClient.invalidateQueries({ queryKey: ['runs'] });
    };
    void followRunEvents({
      runId,
      cursor: () => cursor.current,
      onRecord: (record) => {
        if (record.seq <= cursor.current) return;
        cursor.current = record.seq;
        setRecords((current) => mergeEntries(current, [record]));
        setLoaded(true);
        if (changing.has(record.event.type)) refresh();
      },
      finished: async () => {
        const run = await queryClient.fetchQuery({
          queryKey: ['run', runId],
          queryFn: () => runtimeApi.runs.get(runId),
          staleTime: 0,
        });
        return finishedStatuses.includes(run.status) && run.last_seq <= cursor.current;
      },
      onOpen: () => setLoaded(true),
      onTrouble: (error) => {
        setTrouble(error ? asApiError(error) : null);
        setLoaded(true);
      },
      signal: controller.signal,
    }).finally(() => {
      if (!controller.signal.aborted) setLoaded(true);
    });
    return () => controller.abort();
  }, [runId, active, queryClient]);
  return { records, loaded, trouble };
}
