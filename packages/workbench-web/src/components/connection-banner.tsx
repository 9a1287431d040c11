import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { connection } from '../api/connection.ts';
import { followConnection } from '../api/follow-connection.ts';
import { socket } from '../socket.ts';

// How long "Reconnected" stays after the service is back.
const backNoteMs = 5_000;

/**
 * The page's line to the service: while it does not answer, a banner says so (since when, that the page
 * retries by itself, that what it shows may be old); when it answers again every query is fetched anew
 * (the WebSocket resubscribes by itself) and "Reconnected" shows a few seconds.
 */
export function ConnectionBanner() {
  const queryClient = useQueryClient();
  const state = useSyncExternalStore(connection.subscribe, connection.get);
  const [back, setBack] = useState(false);
  const probe = useRef<() => void>(() => undefined);
  useEffect(() => {
    let hide: ReturnType<typeof setTimeout> | undefined;
    const follow = followConnection(() => {
      void queryClient.invalidateQueries();
      setBack(true);
      clearTimeout(hide);
      hide = setTimeout(() => setBack(false), backNoteMs);
    });
    probe.current = follow.probe;
    const unsubscribe = socket.onConnection((open) => {
      if (!open) follow.probe();
    });
    return () => {
      follow.stop();
      unsubscribe();
      clearTimeout(hide);
    };
  }, [queryClient]);

  if (!state.reachable) {
    return (
      <div className="banner banner-bad connection-banner" role="alert" data-testid="connection-banner">
        <span>
          <strong>The workbench service does not answer</strong> (since{' '}
          {new Date(state.since).toLocaleTimeString()}). This page tries again by itself; what it shows may be
          out of date, and actions fail until the service is back. Is it still running?
        </span>
        <button type="button" className="button-secondary" onClick={() => probe.current()}>
          Try now
        </button>
      </div>
    );
  }
  if (back) {
    return (
      <div className="banner banner-ok connection-banner" role="status" data-testid="connection-banner">
        Reconnected: the page is up to date again.
      </div>
    );
  }
  return null;
}
