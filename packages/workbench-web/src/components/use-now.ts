import { useEffect, useState } from 'react';

/** The time now, updated every `everyMs` while `active` (a clock for "running for 1 min 05 s"). */
export function useNow(active: boolean, everyMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}
