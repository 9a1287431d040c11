import { useEffect, useState } from 'react';
import { formatDuration } from '../format.ts';

/** The current time, every `intervalMs` while `ticking`. */
export function useNow(ticking: boolean, intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [ticking, intervalMs]);
  return now;
}

/** Time since `since` (until `until`, or now, ticking). */
export function Elapsed({ since, until }: { since: string; until?: string | null }) {
  const now = useNow(!until);
  const end = until ? Date.parse(until) : now;
  return <span className="elapsed">{formatDuration(Math.max(0, end - Date.parse(since)))}</span>;
}
