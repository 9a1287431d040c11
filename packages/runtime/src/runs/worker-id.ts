import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { InvalidParamsError } from '../errors/index.ts';

/** A role names what kind of process a worker is (`web` for keel-web): lower-case, no colon. */
const rolePattern = /^[a-z][a-z0-9-]{0,15}$/;

/**
 * A worker's identity as its leases, its steps and recovery events record it: `host:pid:random`, unique
 * per runtime instance; with a role, `role:host:pid:random` (keel-web's executor is `web:host:pid:random`).
 */
export function newWorkerId(role?: string): string {
  if (role !== undefined && !rolePattern.test(role)) {
    throw new InvalidParamsError(
      `A worker role is up to 16 lower-case letters, digits and '-', starting with a letter, not '${role}'.`,
      { field: 'workerRole' },
    );
  }
  const id = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  return role ? `${role}:${id}` : id;
}

/** The parts of a worker id; null when it is not one newWorkerId made (a test's `worker-a`, say). */
export function parseWorkerId(id: string): { role: string | null; host: string; pid: number } | null {
  const parts = id.split(':');
  // Host names hold no colon, so the count of parts tells whether a role leads (`host:pid` is accepted too).
  const [role, host, pid] = parts.length === 4 ? parts : parts.length <= 3 ? [null, ...parts] : [];
  if (!host || !pid || !/^\d+$/.test(pid) || (typeof role === 'string' && !rolePattern.test(role)))
    return null;
  return { role: role ?? null, host, pid: Number(pid) };
}

/**
 * Whether the worker that holds a lease is known to be dead: it ran on this host and its process is gone.
 * A worker on another host cannot be checked; its lease running out is the only sign.
 */
export function ownerIsDead(owner: string | null): boolean {
  if (!owner) return true;
  const parsed = parseWorkerId(owner);
  if (!parsed || parsed.host !== hostname()) return false;
  try {
    process.kill(parsed.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
