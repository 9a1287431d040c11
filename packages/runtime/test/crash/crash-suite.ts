import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { seededRandom } from '@keel/testkit';
import { tokens } from './crash-scenario.ts';
import { prepareTrial, type Recovery, type Supervised, superviseRun, type TrialEnv } from './crash-trial.ts';
import { chooseKill, killKinds, type ReferenceShape } from './kill-plan.ts';
import { otherHostsAvailable } from './worker-process.ts';

/**
 * The crash property test over one store: an uninterrupted reference run, then seeded trials that kill
 * their worker at one or two random points each and recover it from a new process, every trial checked
 * against the promises of docs/reliability.md. Trials run a few at a time, each in its own directories
 * (and its own store on SQLite).
 */
export interface SuiteOptions {
  /** For messages: `SQLite` or `PostgreSQL`. */
  name: string;
  modelUrl: string;
  /** The `store` section of the trials' config.json (undefined: SQLite in the runtime directory). */
  store?: Record<string, unknown>;
  trials: number;
  /** Seeds are firstSeed, firstSeed + 1, …: a failure names its seed, and one seed can be run alone. */
  firstSeed: number;
  concurrency: number;
}

export interface SuiteOutcome {
  failures: string[];
  summary: string;
}

export interface Reference extends ReferenceShape {
  result: unknown;
  eventCount: number;
}

// Chance that a recovered worker is killed again (recovering a recovered run).
const secondKillChance = 0.3;

export async function runCrashSuite(options: SuiteOptions): Promise<SuiteOutcome> {
  const root = await mkdtemp(join(tmpdir(), 'keel-crash-'));
  try {
    const reference = await runReference(root, options);
    const failures: string[] = [];
    const outcomes: Supervised[] = [];
    const seeds = Array.from({ length: options.trials }, (_, index) => options.firstSeed + index);
    await inPool(seeds, options.concurrency, async (seed) => {
      const env = await prepareTrial(join(root, `trial-${seed}`), options.modelUrl, options.store);
      try {
        const outcome = await runTrial(env, seed, reference);
        outcomes.push(outcome);
        const problems = checkTrial(outcome, reference);
        if (problems.length) failures.push(describeFailure(options.name, seed, outcome, problems));
      } catch (error) {
        failures.push(`${options.name} seed ${seed}: ${(error as Error).stack ?? String(error)}`);
      } finally {
        await env.runtime.close();
      }
    });
    return { failures, summary: summarize(options.name, outcomes) };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The uninterrupted run every trial is compared with: its events, checkpoints, duration and result. */
export async function runReference(
  root: string,
  options: Pick<SuiteOptions, 'modelUrl' | 'store'>,
): Promise<Reference> {
  const env = await prepareTrial(join(root, 'reference'), options.modelUrl, options.store);
  try {
    const outcome = await superviseRun(env, () => undefined);
    if (outcome.run.status !== 'succeeded') {
      throw new Error(`the reference run ended ${outcome.run.status}: ${JSON.stringify(outcome.run.error)}`);
    }
    const once = tokens.every((token) => outcome.counts[token] === 1);
    if (!once) throw new Error(`the reference run wrote ${JSON.stringify(outcome.counts)}`);
    return {
      events: outcome.events,
      eventCount: outcome.events.length,
      checkpoints: (await env.runtime.runs.checkpoints(outcome.run.id)).length,
      durationMs: outcome.durationMs,
      result: comparable(outcome.run.result),
    };
  } finally {
    await env.runtime.close();
  }
}

/** The host name of the recovering workers in every other trial, where this machine allows it. */
export const otherHost = 'keel-crash-other-host';

/**
 * One seeded trial: the first kill's kind goes round every kind; a second kill follows by chance. In every
 * other trial the workers that recover the run run under another host name, so they must wait for the
 * dead worker's lease to run out (the path of workers on several machines) rather than see its pid gone.
 */
function runTrial(env: TrialEnv, seed: number, reference: Reference): Promise<Supervised> {
  const random = seededRandom(seed);
  const recoverHost = seed % 2 === 0 && otherHostsAvailable() ? otherHost : undefined;
  return superviseRun(
    env,
    (kills, events) => {
      if (kills >= 2 || (kills === 1 && random.next() >= secondKillChance)) return undefined;
      const kind = kills === 0 ? killKinds[seed % killKinds.length]! : random.pick(killKinds);
      const counts: Record<string, number> = {};
      for (const event of events) counts[event.type] = (counts[event.type] ?? 0) + 1;
      return chooseKill(random, kind, reference, events.at(-1)?.seq ?? 0, counts);
    },
    recoverHost,
  );
}

/** Every promise of docs/reliability.md ("Crashes and recovery"), as a list of what was broken. */
export function checkTrial(outcome: Supervised, reference: Reference): string[] {
  const problems: string[] = [];
  const { run, events, kills } = outcome;
  if (run.status !== 'succeeded') problems.push(`the run ended ${run.status}: ${JSON.stringify(run.error)}`);
  // The log: seq 1..N, each once, and whatever was stored before a kill is still there, unchanged.
  const seqs = events.map((event) => event.seq);
  const gapless = seqs.every((seq, index) => seq === index + 1);
  if (!gapless) {
    problems.push(`event seqs are not 1..${seqs.length} each once: ${seqs.join(',')}`);
  }
  if (run.last_seq !== events.length) problems.push(`last_seq ${run.last_seq} but ${events.length} events`);
  for (const kill of kills) {
    if (!isDeepStrictEqual(events.slice(0, kill.events.length), kill.events)) {
      problems.push(`the events stored before the kill at ${kill.landing} changed afterwards`);
    }
  }
  const count = (type: string) => events.filter((event) => event.type === type).length;
  if (count('session_start') !== 1 || events[0]?.type !== 'session_start') {
    problems.push(`session_start ${count('session_start')} times, first event ${events[0]?.type}`);
  }
  if (events.at(-1)?.type !== 'done') problems.push(`the last event is ${events.at(-1)?.type}, not done`);
  if (count('done') !== 1) problems.push(`done ${count('done')} times`);
  // Approvals: the run asked for one; every request it made was decided, none left pending.
  const pending = outcome.approvals.filter((approval) => approval.status === 'pending');
  if (pending.length)
    problems.push(`${pending.length} approvals left pending: ${pending.map((a) => a.id).join(', ')}`);
  // Orphans: a run is taken over only from a dead worker; from another host, only once its lease ran out.
  if (outcome.recoveries.length > kills.length) {
    problems.push(`${outcome.recoveries.length} recoveries for ${kills.length} kills`);
  }
  for (const recovery of outcome.recoveries) {
    const expired = recovery.lease_expires_at === null || Date.parse(recovery.lease_expires_at) < recovery.at;
    if (crossHost(outcome, recovery) && !expired) {
      problems.push(`recovered from another host before the lease ran out: ${JSON.stringify(recovery)}`);
    }
  }
  // The gate's decision is a step like any other: at least once, and once more at most per kill.
  const reviews = outcome.artifacts.filter((artifact) => artifact.kind === 'review').length;
  if (reviews < 1 || reviews > kills.length + 1)
    problems.push(`${reviews} review artifacts with ${kills.length} kills`);
  // The run's usage counters: what its checkpoints hold, as the result says.
  const usage = (run.result as { usage?: unknown } | null)?.usage;
  if (!isDeepStrictEqual(run.usage, usage)) {
    problems.push(
      `the run's usage ${JSON.stringify(run.usage)} is not its result's ${JSON.stringify(usage)}`,
    );
  }
  // The result: exactly what the uninterrupted run gave.
  if (!isDeepStrictEqual(comparable(run.result), reference.result)) {
    problems.push(`result differs from the uninterrupted run: ${JSON.stringify(comparable(run.result))}`);
  }
  // Tools: at least once, at most once per execution, and never again once a checkpoint holds the result.
  for (const token of tokens) {
    const times = outcome.counts[token];
    if (times < 1 || times > kills.length + 1) {
      problems.push(`${token} ran ${times} times with ${kills.length} kills`);
    }
    kills.forEach((kill, index) => {
      if (!kill.checkpointed.has(token)) return;
      if (times !== kill.counts[token]) {
        problems.push(`${token} was checkpointed before kill ${index + 1} (${kill.landing}) yet ran again`);
      }
      if (index === 0 && times !== 1)
        problems.push(`${token} was checkpointed before any kill but ran ${times}×`);
    });
  }
  return problems;
}

/** Whether the worker that died ran on another host than the one recovering (so only its lease counts). */
function crossHost(outcome: Supervised, recovery: Recovery): boolean {
  const host = (owner: string | null) => owner?.split(':')[0];
  return outcome.recoverHost !== undefined && host(recovery.lease_owner) !== outcome.recoverHost;
}

/** A run's result without what differs between two runs of the same work (their ids). */
function comparable(result: unknown): unknown {
  const { run_id: _run, session_id: _session, ...rest } = (result ?? {}) as Record<string, unknown>;
  return rest;
}

function describeFailure(name: string, seed: number, outcome: Supervised, problems: string[]): string {
  const kills = outcome.kills.map(
    (kill) => `${kill.plan.kind} → ${kill.landing} (${JSON.stringify(kill.plan)})`,
  );
  return [
    `${name} seed ${seed}: ${problems.join('; ')}`,
    `  kills: ${kills.join(' | ') || 'none'}; missed: ${outcome.missed.map((plan) => plan.kind).join(',') || 'none'}`,
    `  events: ${outcome.events.map((event) => event.type).join(' ')}`,
    `  tokens: ${JSON.stringify(outcome.counts)}`,
  ].join('\n');
}

/** The one-line summary: kill points planned and hit by kind, where they landed, and the time per trial. */
function summarize(name: string, outcomes: Supervised[]): string {
  const tally = (keys: string[]) => {
    const counts = new Map<string, number>();
    for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
    return [...counts]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, n]) => `${key} ${n}`)
      .join(', ');
  };
  const kills = outcomes.flatMap((outcome) => outcome.kills);
  const missed = outcomes.flatMap((outcome) => outcome.missed);
  const recoveries = outcomes.flatMap((outcome) =>
    outcome.recoveries.map((recovery) => (crossHost(outcome, recovery) ? 'lease expired' : 'dead pid')),
  );
  const perTrial =
    outcomes.reduce((sum, outcome) => sum + outcome.durationMs, 0) / Math.max(1, outcomes.length);
  return (
    `${name}: ${outcomes.length} trials, ${kills.length} kills by kind (${tally(kills.map((kill) => kill.plan.kind))}); ` +
    `landed (${tally(kills.map((kill) => kill.landing))}); ` +
    `not reached (the run ended first): ${missed.length} (${tally(missed.map((plan) => plan.kind))}); ` +
    `recoveries (${tally(recoveries)}); ` +
    `${Math.round(perTrial)} ms per trial`
  );
}

async function inPool<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}
