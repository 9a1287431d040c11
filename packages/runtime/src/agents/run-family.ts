import { type ErrorObject, InvalidStateError, TimeoutError } from '../errors/index.ts';
import { isOrphaned, nextChange } from '../runs/index.ts';
import { finishedStatuses, type JsonObject, type Run, type RunStore } from '../store/index.ts';
import { toSubAgent } from './agent-record.ts';

// What a run's end means for the runs it is tied to as parent or sub-agent. Every path that ends a run
// (its worker, a kill, a timeout nobody else enforces) calls settleEndedRun, from whichever process.

/**
 * After a run ended: a sub-agent tells its parent (an `agent_finished` event in the parent's log) and
 * wakes it if it waits on this sub-agent; a parent's sub-agents still working are killed, since nobody
 * will read what they find. A run that has not ended is left alone.
 */
export async function settleEndedRun(store: RunStore, run: Run): Promise<void> {
  if (!finishedStatuses.includes(run.status)) return;
  if (run.agent && run.parent_run_id) await tellParent(store, run, run.parent_run_id);
  const children = await store.listRuns({ parent_run_id: run.id, active_agents: true, limit: 1000 });
  // Waited for: a process that ends with its run must not leave its sub-agents running behind it.
  await Promise.all(children.map((child) => killAndWait(store, child, 5_000).catch(() => undefined)));
}

async function tellParent(store: RunStore, child: Run, parentId: string): Promise<void> {
  const parent = await store.getRun(parentId).catch(() => null);
  // A parent that ended has said its last word (`done` stays its last event).
  if (!parent || finishedStatuses.includes(parent.status)) return;
  const record = toSubAgent(child);
  await store.appendEvent(parent.id, {
    type: 'agent_finished',
    session_id: parent.session_id ?? '',
    agent_id: record.agent_id,
    run_id: child.id,
    status: record.status,
    error: record.error,
  });
  await wakeIfWaitingOn(store, parent, record.agent_id);
}

/**
 * A parent parked on this sub-agent (get_agent_status with `wait`: its latest waiting step names it) goes
 * back to the queue, unless an approval still holds it; whoever follows or works runs continues it.
 */
export async function wakeIfWaitingOn(store: RunStore, parent: Run, agentId: string): Promise<boolean> {
  if (parent.status !== 'waiting' || (await awaitedAgent(store, parent.id)) !== agentId) return false;
  const pending = await store.listApprovals({ run_id: parent.id, status: 'pending', limit: 1 });
  if (pending.length > 0) return false;
  return store
    .transition(parent.id, { from: ['waiting'], to: 'queued' })
    .then(() => true)
    .catch((error: unknown) => {
      // Someone else woke or ended it first: fine.
      if (error instanceof InvalidStateError) return false;
      throw error;
    });
}

/** The sub-agent a waiting run is parked on, from its latest waiting step; undefined when none. */
export async function awaitedAgent(store: RunStore, runId: string): Promise<string | undefined> {
  const steps = await store.listSteps(runId);
  const waiting = steps.findLast((step) => step.status === 'waiting');
  const awaited = (waiting?.detail.waiting_for as { agent_id?: unknown } | undefined)?.agent_id;
  return typeof awaited === 'string' ? awaited : undefined;
}

/**
 * Kills a sub-agent's run. One a live worker executes is asked to stop (a cancel request its worker takes
 * within a fraction of a second); one nobody executes (pending, waiting, paused, or orphaned by a crash)
 * ends here, `cancelled`. Returns the run as it is now.
 */
export async function killRun(store: RunStore, run: Run): Promise<Run> {
  if (run.status === 'running' && !isOrphaned(run)) {
    await store.requestControl(run.id, 'cancel');
    return run;
  }
  const error: ErrorObject = { code: 'CANCELLED', message: 'The sub-agent was killed.' };
  return endHere(store, run, 'cancelled', error, { type: 'cancelled' });
}

/**
 * Kills a sub-agent's run and waits (up to `waitMs`) until it has stopped; one whose worker died meanwhile,
 * or that stopped to wait or pause before taking the request, is ended here. Returns the run as it is then.
 */
export async function killAndWait(store: RunStore, run: Run, waitMs: number): Promise<Run> {
  let current = await killRun(store, run).catch(async (error: unknown) => {
    // It ended on its own meanwhile: what it ended as is the answer.
    if (error instanceof InvalidStateError) return store.getRun(run.id);
    throw error;
  });
  const deadline = Date.now() + waitMs;
  while (!finishedStatuses.includes(current.status) && Date.now() < deadline) {
    await nextChange(store, run.id, undefined, Math.min(250, Math.max(deadline - Date.now(), 1)));
    current = await store.getRun(run.id);
    const unheld =
      current.status === 'running' ? isOrphaned(current) : !finishedStatuses.includes(current.status);
    if (unheld) current = await killRun(store, current).catch(() => store.getRun(run.id));
  }
  return current;
}

/**
 * Ends the sub-agent runs past their deadline that no live worker executes (a worker's own deadline timer
 * ends the others): pending ones nobody started, waiting or paused ones, orphaned ones. Any process may
 * call it; each run is ended once. Returns the runs it ended.
 */
export async function expireOverdueAgents(store: RunStore, now: number = Date.now()): Promise<Run[]> {
  const ended: Run[] = [];
  for (const run of await store.listRuns({ active_agents: true, limit: 1000 })) {
    const agent = run.agent!;
    if (Date.parse(agent.deadline_at) > now) continue;
    if (run.status === 'running' && !isOrphaned(run, now)) continue;
    const error = new TimeoutError(`The sub-agent ran past its timeout of ${agent.timeout_seconds} s.`, {
      agent_id: agent.agent_id,
      timeout_seconds: agent.timeout_seconds,
    }).toJSON();
    const done = await endHere(store, run, 'failed', error, { type: 'error', error }).catch(() => null);
    if (done) ended.push(done);
  }
  return ended;
}

/**
 * Kills the sub-agents still working whose parent has ended without settling them (cancelled while it
 * waited, so that no worker saw it end). Any process may call it. Returns the runs it asked to stop.
 */
export async function killStrayAgents(store: RunStore): Promise<Run[]> {
  const stray: Run[] = [];
  for (const run of await store.listRuns({ active_agents: true, limit: 1000 })) {
    if (!run.parent_run_id) continue;
    const parent = await store.getRun(run.parent_run_id).catch(() => null);
    if (parent && !finishedStatuses.includes(parent.status)) continue;
    stray.push(await killRun(store, run).catch(() => run));
  }
  return stray;
}

/** Ends a run no live worker holds: the guarded move, its approvals, its last event, its family. */
async function endHere(
  store: RunStore,
  run: Run,
  to: 'cancelled' | 'failed',
  error: ErrorObject,
  last: { type: 'cancelled' } | { type: 'error'; error: ErrorObject },
): Promise<Run> {
  const from = run.status === 'running' ? (['running'] as const) : (['queued', 'waiting', 'paused'] as const);
  const ended = await store.transition(run.id, { from, to, error, releaseLease: true });
  for (const approval of await store.listApprovals({ run_id: run.id, status: 'pending' })) {
    await store.decideApproval(approval.id, { status: 'cancelled' }).catch(() => undefined);
  }
  await store.appendEvent(run.id, { ...last, session_id: run.session_id ?? '' } as unknown as JsonObject & {
    type: string;
  });
  await settleEndedRun(store, ended);
  return ended;
}
