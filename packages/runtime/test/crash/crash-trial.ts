import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type Approval, type Artifact, createRuntime, type Run, type Runtime } from '../../src/index.ts';
import { decodeCheckpoints } from '../../src/runs/checkpoint-codec.ts';
import {
  approvedTools,
  checkpointedTokens,
  crashPrompt,
  crashWorkflow,
  type Token,
  templateFile,
  tokenLog,
  tokens,
} from './crash-scenario.ts';
import type { WorkerSetup } from './crash-worker.ts';
import { type KillPlan, landing } from './kill-plan.ts';
import { startWorker, type WorkerProcess, waitForOrphans } from './worker-process.ts';

/** Leases this short are renewed every 200 ms (the beat), so renewals are frequent enough to be hit. */
export const trialLeaseMs = 500;
// A trial that takes longer than this is stuck, not slow: it fails with what it saw.
const trialTimeoutMs = 90_000;

/** One trial's directories and the runtime the test uses on its store (another process than the workers). */
export interface TrialEnv {
  dir: string;
  runtimeDir: string;
  workdir: string;
  modelUrl: string;
  runtime: Runtime;
}

/**
 * A trial directory: the runtime directory (its config.json names the store, the short lease and the tool
 * that needs approval) and the workdir the tools write their tokens in.
 */
export async function prepareTrial(
  dir: string,
  modelUrl: string,
  store: Record<string, unknown> | undefined,
): Promise<TrialEnv> {
  const runtimeDir = join(dir, 'home');
  const workdir = join(dir, 'work');
  await mkdir(runtimeDir, { recursive: true });
  await mkdir(workdir, { recursive: true });
  await writeFile(join(workdir, templateFile.path), templateFile.content);
  const config = {
    runs: { lease_ms: trialLeaseMs },
    security: { require_approval: approvedTools },
    ...(store ? { store } : {}),
  };
  await writeFile(join(runtimeDir, 'config.json'), JSON.stringify(config, null, 2));
  const runtime = createRuntime({
    runtimeDir,
    workdir,
    model: 'mock-model',
    modelBaseUrl: modelUrl,
    env: {},
  });
  return { dir, runtimeDir, workdir, modelUrl, runtime };
}

export interface StoredEvent {
  seq: number;
  type: string;
}

/** What the test saw when a worker died. */
export interface KillRecord {
  plan: KillPlan;
  landing: string;
  /** The run's events when it died: the log must still begin with exactly these. */
  events: StoredEvent[];
  /** Tokens in the log once the commands it had started were done. */
  counts: Record<Token, number>;
  /** Tokens whose tool result was in a checkpoint when it died: they must never run again. */
  checkpointed: Set<Token>;
}

/** A worker taking over a run whose worker died, as it saw the run then. */
export interface Recovery {
  at: number;
  lease_expires_at: string | null;
  lease_owner: string | null;
}

export interface Supervised {
  run: Run;
  events: StoredEvent[];
  approvals: Approval[];
  /** The gate's review artifacts. */
  artifacts: Artifact[];
  kills: KillRecord[];
  /** Plans whose moment never came (the run ended first). */
  missed: KillPlan[];
  counts: Record<Token, number>;
  durationMs: number;
  workers: number;
  /** The host name the recovering workers ran under, when not this machine's. */
  recoverHost: string | undefined;
  recoveries: Recovery[];
}

/**
 * Chooses the kill point of the next worker (undefined: let it finish), knowing the events stored so far:
 * `kills` is how many workers were killed already.
 */
export type PlanKills = (kills: number, events: StoredEvent[]) => KillPlan | undefined;

/**
 * Creates the workflow run and sees it to its end: a worker process drives it; the test approves from its
 * own runtime whenever it waits; each plan kills the worker in turn (armed in it, or fired from here), and a
 * fresh worker recovers the run after every kill.
 */
export async function superviseRun(
  env: TrialEnv,
  planKills: PlanKills,
  recoverHost?: string,
): Promise<Supervised> {
  const { runtime } = env;
  const store = await runtime.store();
  const started = Date.now();
  const created = await runtime.start(
    { prompt: crashPrompt, workdir: env.workdir },
    { workflow: crashWorkflow, execute: false },
  );
  const runId = created.id;
  const setup: WorkerSetup = { runtimeDir: env.runtimeDir, workdir: env.workdir, modelUrl: env.modelUrl };
  const events: StoredEvent[] = [];
  const kills: KillRecord[] = [];
  const missed: KillPlan[] = [];
  let workers = 1;
  let plan = planKills(0, events);
  let worker: WorkerProcess = startWorker(setup);
  // The next worker loads while this one works (process start-up is most of a trial's cost); only a
  // worker that will be killed needs a successor.
  let spare: WorkerProcess | undefined = plan ? startWorker(setup, recoverHost) : undefined;
  const spawned: WorkerProcess[] = [worker, ...(spare ? [spare] : [])];
  const approved = new Set<string>();
  let goAt = 0;
  let fireAt: number | null = null;
  const go = async () => {
    await worker.ready;
    worker.go({ runId, ...(plan && 'armed' in plan ? { kill: plan.armed } : {}) });
    goAt = Date.now();
    fireAt = plan?.kind === 'delay' ? goAt + plan.delayMs : null;
  };
  try {
    await go();
    for (;;) {
      if (Date.now() - started > trialTimeoutMs) {
        throw new Error(`the run did not end in ${trialTimeoutMs} ms; worker output:\n${worker.output()}`);
      }
      for (const record of await store.listEvents(runId, { after: events.at(-1)?.seq ?? 0 })) {
        events.push({ seq: record.seq, type: record.type });
      }
      const run = await store.getRun(runId);
      // Approve what the run waits for, once each, from this process (approvals free the worker). Read
      // from the store, not from the events seen: a kill can store a request between two polls.
      if (run.status === 'waiting') {
        for (const approval of await runtime.approvals.list({ run_id: runId, status: 'pending' })) {
          if (approved.has(approval.id)) continue;
          await runtime.approvals.approve(approval.id, { by: 'crash-test' });
          approved.add(approval.id);
        }
      }
      const watched = plan && (plan.kind === 'tool' || plan.kind === 'stream') ? plan : undefined;
      if (watched && fireAt === null) {
        const seen = events.filter((event) => event.type === watched.type).length;
        if (seen >= watched.occurrence) fireAt = Date.now() + watched.delayMs;
      }
      if (fireAt !== null && Date.now() >= fireAt) {
        worker.kill();
        fireAt = Number.POSITIVE_INFINITY;
      }
      // Closely while a kill from here is due, so it lands near its moment; loosely otherwise.
      const closely = fireAt !== null || plan?.kind === 'tool' || plan?.kind === 'stream';
      const exit = await Promise.race([worker.exited, delay(closely ? 2 : 25, null)]);
      if (!exit) continue;
      if (exit.signal !== 'SIGKILL') {
        if (exit.code !== 0) throw new Error(`worker exited with ${exit.code}:\n${worker.output()}`);
        if (plan) missed.push(plan);
        break;
      }
      if (!plan) throw new Error(`worker ${worker.pid} was killed without a plan:\n${worker.output()}`);
      const killed = await afterKill(env, runId, plan);
      kills.push(killed);
      events.splice(0, events.length, ...killed.events);
      plan = planKills(kills.length, events);
      worker = spare ?? startWorker(setup, recoverHost);
      workers += 1;
      spare = plan ? startWorker(setup, recoverHost) : undefined;
      for (const each of [worker, spare]) if (each && !spawned.includes(each)) spawned.push(each);
      await go();
    }
    const run = await runtime.runs.get(runId);
    const all = (await runtime.runs.events(runId)).map((record) => ({ seq: record.seq, type: record.type }));
    return {
      run,
      events: all,
      approvals: await runtime.approvals.list({ run_id: runId }),
      artifacts: await runtime.runs.artifacts(runId),
      kills,
      missed,
      counts: await tokenCounts(env.workdir),
      durationMs: Date.now() - started,
      workers,
      recoverHost,
      recoveries: spawned.flatMap((each) => recoveriesIn(each.output())),
    };
  } finally {
    for (const each of [worker, spare]) {
      if (!each) continue;
      each.kill();
      await each.exited;
    }
  }
}

/** What a kill left: once the commands it started are done, the log, the tokens and the checkpoints. */
async function afterKill(env: TrialEnv, runId: string, plan: KillPlan): Promise<KillRecord> {
  await waitForOrphans(env.workdir);
  const { runtime } = env;
  const run = await runtime.runs.get(runId);
  const events = (await runtime.runs.events(runId)).map((record) => ({ seq: record.seq, type: record.type }));
  const state = decodeCheckpoints(await runtime.runs.checkpoints(runId));
  return {
    plan,
    landing: landing(plan, events, run.status),
    events,
    counts: await tokenCounts(env.workdir),
    checkpointed: checkpointedTokens(state),
  };
}

export async function tokenCounts(workdir: string): Promise<Record<Token, number>> {
  const text = await readFile(join(workdir, tokenLog), 'utf8').catch(() => '');
  const lines = text.split('\n').filter(Boolean);
  const counts = Object.fromEntries(tokens.map((token) => [token, 0])) as Record<Token, number>;
  for (const line of lines) {
    if (line in counts) counts[line as Token] += 1;
    else throw new Error(`${tokenLog} holds a line no tool writes: ${JSON.stringify(line)}`);
  }
  return counts;
}

/** What the workers said when they took over the run (crash-worker.ts prints a line each time). */
function recoveriesIn(output: string): Recovery[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{"recovering":true'))
    .map((line) => JSON.parse(line) as Recovery);
}
