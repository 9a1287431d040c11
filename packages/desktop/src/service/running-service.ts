import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The most a look at the log reads from its end: far more than the lines a start and a stop write. */
const tailBytes = 1024 * 1024;

/**
 * The workbench already serving this data directory, if one is: the workbench records each start in its
 * log (`{home}/logs/workbench.log`: a `started` line with its URL and pid), and a later `stopping` means it
 * ended. Such a line is believed only when its process is alive and its URL answers `/api/health` (a
 * process killed with -9 writes no `stopping`, and its pid may since belong to someone else).
 */
export async function findRunningWorkbench(home: string): Promise<{ url: string; pid: number } | undefined> {
  const started = lastStart(join(home, 'logs', 'workbench.log'));
  if (!started || !alive(started.pid)) return undefined;
  try {
    const answer = await fetch(new URL('/api/health', started.url), { signal: AbortSignal.timeout(2000) });
    return answer.ok ? started : undefined;
  } catch {
    return undefined;
  }
}

/** The last `started` line of the log not followed by a `stopping` one. */
export function lastStart(logFile: string): { url: string; pid: number } | undefined {
  let text: string;
  try {
    const size = statSync(logFile).size;
    const fd = openSync(logFile, 'r');
    const buffer = Buffer.alloc(Math.min(size, tailBytes));
    readSync(fd, buffer, 0, buffer.length, size - buffer.length);
    closeSync(fd);
    text = buffer.toString('utf8');
  } catch {
    return undefined; // no log: never started here
  }
  const lines = text.split('\n');
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = parse(lines[index] ?? '');
    if (line?.msg === 'stopping' || line?.msg === 'stopped') return undefined;
    if (line?.msg === 'started' && typeof line.url === 'string' && typeof line.pid === 'number') {
      return { url: line.url, pid: line.pid };
    }
  }
  return undefined;
}

function parse(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
