import type { RunEventEntry } from '@keel/web-client';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { type ApiError, asApiError } from '../api/errors.ts';
import { mergeEntries } from '../api/transcript.ts';
import { fromKeelWebError, keelWeb } from './api/keel-web.ts';

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
 * A run's events, replayed from its first and then followed live (`keelWeb.runs.follow`: SSE, resumed from
 * the last seq after a dropped connection, each event once). `trouble` is the last lost connection until a
 * stream opens again, or what ended the follow (an unknown run). `active` (the run is not final) restarts
 * the follow when a control puts a finished run back in the queue.
 */
export function useRunEvents(runId: string, active: boolean) {
  const queryClient = useQueryClient();
  const [records, setRecords] = useState<RunEventEntry[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [trouble, setTrouble] = useState<ApiError | null>(null);
  const cursor = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `active` restarts the follow (see above)
  useEffect(() => {
    const controller = new AbortController();
    const troubleOf = (error: unknown) => asApiError(fromKeelWebError(error));
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: ['run', runId] });
      void queryClient.invalidateQueries({ queryKey: ['approvals'] });
      void queryClient.invalidateQueries({ queryKey: ['runs'] });
    };
    keelWeb.runs
      .follow(runId, {
        after: cursor.current,
        signal: controller.signal,
        onOpen: () => {
          setTrouble(null);
          setLoaded(true);
        },
        onDrop: (error) => {
          setTrouble(troubleOf(error));
          setLoaded(true);
        },
        onEvent: (entry) => {
          cursor.current = entry.seq;
          setRecords((current) => mergeEntries(current, [entry]));
          if (changing.has(entry.event.type)) refresh();
        },
      })
      // The run ended and every event was heard: its detail is the one the follow read last.
      .then((run) => queryClient.setQueryData(['run', runId], run))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setTrouble(troubleOf(error));
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoaded(true);
      });
    return () => controller.abort();
  }, [runId, active, queryClient]);
  return { records, loaded, trouble };
}
