import { useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../api/client.ts';
import { type ApiError, asApiError } from '../api/errors.ts';
import { foldTranscript, mergeEntries } from '../api/transcript.ts';
import { durationWords, turnProgress } from '../api/turn-progress.ts';
import type { LogEntry, QueuedMessage, Session } from '../api/types.ts';
import { usageWords } from '../api/usage-words.ts';
import { socket } from '../socket.ts';
import { QueuedMessages } from './queued-messages.tsx';
import { Badge, ErrorNote, Loading } from './status.tsx';
import { StopButton } from './stop-button.tsx';
import { TranscriptBlock } from './transcript-block.tsx';
import { useNow } from './use-now.ts';

/**
 * A session's log: replayed from `GET /api/sessions/{id}/logs` (every page), then followed over the
 * WebSocket from the last seq replayed. The socket replays whatever was appended in between and entries
 * are merged by seq, so there is no gap and no duplicate.
 */
export function useSessionLog(sessionId: string, onEntry?: (entry: LogEntry) => void) {
  // The latest callback, read when an entry arrives: a new function each render does not resubscribe.
  const onEntryRef = useRef(onEntry);
  onEntryRef.current = onEntry;
  const [entries, setEntries] = useState<LogEntry[]>([]);
  const [session, setSession] = useState<Session | null>(null);
  const [queued, setQueued] = useState<QueuedMessage[]>([]);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    let cancelled = false;
    let stop = () => {};
    setEntries([]);
    setSession(null);
    setQueued([]);
    setError(null);
    setLoading(true);
    void (async () => {
      try {
        const status = await api.sessions.status(sessionId);
        let after = 0;
        let replayed: LogEntry[] = [];
        for (;;) {
          const page = await api.sessions.logs(sessionId, { after, limit: 1000 });
          replayed = mergeEntries(replayed, page.entries);
          after = Math.max(after, page.next_cursor);
          if (!page.has_more || page.entries.length === 0) break;
        }
        if (cancelled) return;
        setEntries(replayed);
        for (const entry of replayed) onEntryRef.current?.(entry);
        setSession(status);
        setLoading(false);
        stop = socket.subscribe(sessionId, after, {
          onEntry: (entry) => {
            setEntries((current) => mergeEntries(current, [entry]));
            onEntryRef.current?.(entry);
          },
          onStatus: (next) => setSession(next),
          onQueue: setQueued,
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
  return { entries, session, queued, setQueued, error, loading };
}

/** A session as a transcript: text, thinking (collapsed), tool calls with results, steps, errors in red. */
export function SessionView({
  sessionId,
  title = 'Session',
  onStatus,
  onEntry,
  stoppable = true,
}: {
  sessionId: string;
  title?: string;
  onStatus?: (session: Session) => void;
  /** Hears each entry: the replayed ones once the replay is read, then each as the socket pushes it. */
  onEntry?: (entry: LogEntry) => void;
  /** Offer a Stop button while a turn runs (a task's initialization runs no turn: it has none). */
  stoppable?: boolean;
}) {
  const { entries, session, queued, setQueued, error, loading } = useSessionLog(sessionId, onEntry);
  const items = useMemo(() => foldTranscript(entries), [entries]);
  const running = session?.status === 'running';
  const turn = useMemo(() => (running ? turnProgress(entries) : null), [running, entries]);
  const now = useNow(running);
  const onStatusRef = useRef(onStatus);
  onStatusRef.current = onStatus;
  useEffect(() => {
    if (session) onStatusRef.current?.(session);
  }, [session]);
  // Follow the end while the reader is at the end; scrolling up stops following (only the box scrolls).
  const box = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  // Shown while the reader is scrolled up: a way back to the live end.
  const [behind, setBehind] = useState(false);
  // Where this view last put the box: a scroll above it is the reader's, not this view's.
  const lastSet = useRef(0);
  useEffect(() => {
    const element = box.current;
    if (!element || items.length === 0) return;
    // The reader scrolled up since the box was last moved (its scroll event may not have come yet).
    if (element.scrollTop < lastSet.current - 4) follow.current = false;
    if (follow.current) {
      element.scrollTop = element.scrollHeight;
      lastSet.current = element.scrollTop;
    } else {
      setBehind(true);
    }
  }, [items]);
  return (
    <section className="session" aria-label={title} data-testid="session-view" data-session-id={sessionId}>
      <header className="session-head">
        <h4>{title}</h4>
        {session ? (
          // A conversation's session waits as "queued" until the first message: it is ready, not busy.
          session.kind === 'conversation' && session.status === 'queued' && session.last_seq === 0 ? (
            <Badge value="ready" tone="idle" title="Send the first message" />
          ) : session.status === 'cancelled' ? (
            <Badge value="stopped" tone="muted" title="Stopped by you (or with its task)" />
          ) : (
            <Badge value={session.status} />
          )
        ) : null}
        {session?.runner ? <span className="hint">{session.runner}</span> : null}
        {turn ? (
          <span className="hint" data-testid="turn-progress" role="timer" aria-live="off">
            for {durationWords(now - turn.startedAt)}
            {turn.toolCalls > 0 ? ` · ${turn.toolCalls} tool call${turn.toolCalls === 1 ? '' : 's'}` : ''}
          </span>
        ) : null}
        {session && stoppable && session.kind !== 'task_init' && session.status === 'running' ? (
          <StopButton
            sessionId={sessionId}
            what={title.toLowerCase()}
            onStopped={(stopped) => {
              if (stopped) onStatusRef.current?.(stopped);
            }}
          />
        ) : null}
        {session?.usage ? (
          <span
            className="hint"
            data-testid="session-usage"
            title={`Over all its turns: ${usageWords(session.usage).title}`}
          >
            {usageWords(session.usage).text}
          </span>
        ) : null}
      </header>
      <div
        ref={box}
        className="transcript"
        onScroll={(event) => {
          const box = event.currentTarget;
          const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
          if (atEnd) follow.current = true;
          else if (box.scrollTop < lastSet.current - 4) follow.current = false;
          lastSet.current = atEnd ? box.scrollTop : Math.min(lastSet.current, box.scrollTop);
          setBehind(!follow.current);
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
      {behind ? (
        <button
          type="button"
          className="button-quiet follow-latest"
          onClick={() => {
            const element = box.current;
            if (element) {
              element.scrollTop = element.scrollHeight;
              lastSet.current = element.scrollTop;
            }
            follow.current = true;
            setBehind(false);
          }}
        >
          ↓ Follow the latest output
        </button>
      ) : null}
      <QueuedMessages sessionId={sessionId} messages={queued} onChange={setQueued} />
    </section>
  );
}
