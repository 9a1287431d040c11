import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** A worker's identity as its lease records it: `host:pid:random`, unique per runtime instance. */
export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/**
 * Whether the worker that holds a lease is known to be dead: it ran on this host and its process is gone.
 * A worker on another host cannot be checked; its lease running out is the only sign.
 */
export function ownerIsDead(owner: string | null): boolean {
  if (!owner) return true;
  const [host, pid] = owner.split(':');
  if (host !== hostname() || !pid || !/^\d+$/.test(pid)) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
