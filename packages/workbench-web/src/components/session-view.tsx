import { useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../api/client.ts';
import { type ApiError, asApiError } from '../api/errors.ts';
import { foldTranscript, mergeEntries } from '../api/transcript.ts';
import type { LogEntry, Session } from '../api/types.ts';
import { socket } from '../socket.ts';
import { Badge, ErrorNote, Loading } from './status.tsx';
import { TranscriptBlock } from './transcript-block.tsx';

/**
 * A session's log: replayed from `GET /api/sessions/{id}/logs` (every page), then followed over the
 * WebSocket from the last seq replayed. The socket replays whatever was appended in between and entries
 * are merged by seq, so there is no gap and no duplicate.
 */
export function useSessionLog(sessionId: string) {
  const [entries, setEntries] = useState<LogEntry[]>([]);
  const [session, setSession] = useState<Session | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    let cancelled = false;
    let stop = () => {};
    setEntries([]);
    setSession(null);
    setError(null);
    setLoading(true);
    void (async () => {
      try {
        const status = await api.sessions.status(sessionId);
        let after = 0;
        let replayed: LogEntry[] = [];
        for (;;) {
          const page = await api.sessions.logs(sessionId, after);
          replayed = mergeEntries(replayed, page.entries);
          after = Math.max(after, page.next_cursor);
          if (!page.has_more || page.entries.length === 0) break;
        }
        if (cancelled) return;
        setEntries(replayed);
        setSession(status);
        setLoading(false);
        stop = socket.subscribe(sessionId, after, {
          onEntry: (entry) => setEntries((current) => mergeEntries(current, [entry])),
          onStatus: (next) => setSession(next),
        });
      } catch (failure) {
        if (cancelled) return;
        setError(asApiError(failure));
        setLoading(false);
      }
    })();
    return () => {
      cancelled = true;
      stop();
    };
  }, [sessionId]);
  return { entries, session, error, loading };
}

/** A session as a transcript: text, thinking (collapsed), tool calls with results, steps, errors in red. */
export function SessionView({
  sessionId,
  title = 'Session',
  onStatus,
}: {
  sessionId: string;
  title?: string;
  onStatus?: (session: Session) => void;
}) {
  const { entries, session, error, loading } = useSessionLog(sessionId);
  const items = useMemo(() => foldTranscript(entries), [entries]);
  const onStatusRef = useRef(onStatus);
  onStatusRef.current = onStatus;
  useEffect(() => {
    if (session) onStatusRef.current?.(session);
  }, [session]);
  // Follow the end while the reader is at the end; scrolling up stops following (only the box scrolls).
  const box = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  useEffect(() => {
    const element = box.current;
    if (element && follow.current && items.length > 0) element.scrollTop = element.scrollHeight;
  }, [items]);
  return (
    <section className="session" aria-label={title} data-testid="session-view" data-session-id={sessionId}>
      <header className="session-head">
        <h4>{title}</h4>
        {session ? <Badge value={session.status} /> : null}
        {session?.runner ? <span className="hint">{session.runner}</span> : null}
        {session?.usage ? (
          <span className="hint">
            {session.usage.total_tokens.toLocaleString()} tokens
            {session.usage.cost_usd ? ` · $${session.usage.cost_usd.toFixed(4)}` : ''}
          </span>
        ) : null}
      </header>
      <div
        ref={box}
        className="transcript"
        onScroll={(event) => {
          const box = event.currentTarget;
          follow.current = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
        }}
      >
        {loading ? <Loading what="log" /> : null}
        <ErrorNote error={error} />
        {!loading && items.length === 0 && !error ? <div className="empty">Nothing logged yet.</div> : null}
        {items.map((item) => (
          <TranscriptBlock key={`${item.type}-${item.seq}`} item={item} />
        ))}
        {session?.error && !items.some((item) => item.type === 'error') ? (
          <div className="t-error" role="alert">
            <strong>{session.error.code}</strong> {session.error.message}
          </div>
        ) : null}
      </div>
    </section>
  );
}
