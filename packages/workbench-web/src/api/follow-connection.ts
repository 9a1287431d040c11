import { connection, watchedFetch } from './connection.ts';

// Typed by hand: the repository's Node-only configuration type-checks this file too.
const visible = () =>
  (globalThis as unknown as { document?: { visibilityState: string } }).document?.visibilityState !==
  'hidden';

// While connected a local service is cheap to ask; while not, ask sooner at first, then back off.
const heartbeatMs = 5_000;
const maxRetryMs = 10_000;

/**
 * Asks `/health` every few seconds while the page is visible (backing off while the service is gone) and
 * calls `onBack` each time it answers again. Answers `{ probe, stop }`: `probe` asks at once (the
 * WebSocket closing is a hint worth checking), `stop` ends it.
 */
export function followConnection(onBack: () => void): { probe: () => void; stop: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let stopped = false;
  const schedule = () => {
    clearTimeout(timer);
    if (stopped) return;
    const delay = connection.get().reachable ? heartbeatMs : Math.min(maxRetryMs, 500 * 2 ** failures);
    timer = setTimeout(probe, delay);
  };
  const probe = async () => {
    clearTimeout(timer);
    // A hidden tab is not asked while all is well; `onBack` comes from the transition (below).
    if (visible() || !connection.get().reachable) {
      try {
        await watchedFetch('/health', { cache: 'no-store' });
      } catch {}
    }
    failures = connection.get().reachable ? 0 : failures + 1;
    schedule();
  };
  // Whichever call finds the service back (this probe or any other), the page resyncs.
  const unsubscribe = connection.subscribe(() => {
    if (connection.get().reachable) onBack();
    else schedule();
  });
  schedule();
  return {
    probe: () => void probe(),
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
    },
  };
}
