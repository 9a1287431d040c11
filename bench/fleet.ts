// A fleet of real `keel worker` processes on one PostgreSQL store (issue #45): how runs/min grows from 1 to
// 2 and 4 workers, with a model that answers at once (what remains is the store's and the runtime's cost
// per turn) and one that takes 500 ms a turn (what a team meets). Each configuration gets a fresh schema,
// its workers are ready before the runs are queued, and the figures come from the run records themselves
// (first `created_at` to last `ended_at`), not from when this process notices. The reference of each line is
// 1 worker at the same model latency, measured in the same run.
//   runs/min: queued runs ÷ (last run's end − first run's creation); the ideal ratio is the worker count.
//   per-turn overhead: each run's own time (claimed → ended) minus its model delay, per model turn, as a
//   median over the runs: the store's writes (events, steps, checkpoints, lease) and the runtime's work.
//
// Needs PostgreSQL (KEEL_BENCH_PG_URL, or KEEL_TEST_PG_URL) and the built `keel` (`npm run build`): the
// workers are the installed program, as a team runs them. KEEL_BENCH_FLEET_RUNS sets the runs per
// configuration at latency 0 (default 60), KEEL_BENCH_FLEET_SLOW_RUNS at 500 ms (default 12: a multiple of
// every worker count, so no worker idles through a last round), KEEL_BENCH_FLEET_WORKERS the worker counts
// (default 1,2,4). About two minutes on 2 cores.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createRuntime, finishedStatuses, type Run } from '@keel/runtime';
import type { ScriptedReply } from '@keel/testkit';
import { report } from './report.ts';

const url = process.env.KEEL_BENCH_PG_URL ?? process.env.KEEL_TEST_PG_URL;
const runsAt = (latencyMs: number) =>
  Number(
    latencyMs === 0
      ? (process.env.KEEL_BENCH_FLEET_RUNS ?? 60)
      : (process.env.KEEL_BENCH_FLEET_SLOW_RUNS ?? 12),
  );
const workerCounts = (process.env.KEEL_BENCH_FLEET_WORKERS ?? '1,2,4').split(',').map(Number);
const latencies = [0, 500];
const keelBin = fileURLToPath(new URL('../packages/cli/bin/keel.js', import.meta.url));
const mockModelCli = fileURLToPath(new URL('../packages/testkit/src/cli.ts', import.meta.url));
// Each run: read one file, read another, answer. Three model turns, two tool batches.
const turnsPerRun = 3;
const files = { 'first.txt': 'first-file-marker\n', 'second.txt': 'second-file-marker\n' };

interface Measured {
  runsPerMin: number;
  overheadMsPerTurn: number;
  runs: number;
  wallMs: number;
  failed: number;
}

if (!url) {
  console.log(
    JSON.stringify({ bench: 'fleet', note: 'skipped: set KEEL_BENCH_PG_URL to a PostgreSQL server' }),
  );
} else {
  const { default: pg } = await import('pg');
  for (const latencyMs of latencies) {
    const runs = runsAt(latencyMs);
    let reference: Measured | undefined;
    for (const workers of workerCounts) {
      const measured = await measure(workers, latencyMs, runs, pg);
      reference ??= measured;
      const name = `${plural(workerCounts[0]!, 'worker')}, same model latency, same run`;
      const details = {
        workers,
        model_latency_ms: latencyMs,
        runs: measured.runs,
        failed: measured.failed,
        wall_ms: Math.round(measured.wallMs),
        ideal_ratio: workers / workerCounts[0]!,
      };
      report({
        bench: 'fleet',
        figure: `runs/min, ${plural(workers, 'worker')}, model latency ${latencyMs} ms`,
        value: measured.runsPerMin,
        unit: 'runs/min',
        reference: { name, value: reference.runsPerMin },
        details,
      });
      report({
        bench: 'fleet',
        figure: `per-turn overhead (run time minus model delay), ${plural(workers, 'worker')}, model latency ${latencyMs} ms`,
        value: measured.overheadMsPerTurn,
        unit: 'ms/turn',
        reference: { name, value: reference.overheadMsPerTurn },
        details,
      });
    }
  }
}

/** One configuration: a fresh schema, `workers` ready workers, `runs` queued runs, until all have ended. */
async function measure(
  workers: number,
  latencyMs: number,
  runs: number,
  pg: typeof import('pg').default,
): Promise<Measured> {
  const schema = `keel_bench_fleet_${process.pid}_${workers}_${latencyMs}`;
  const home = await mkdtemp(join(tmpdir(), 'keel-bench-fleet-'));
  const workdir = await mkdtemp(join(tmpdir(), 'keel-bench-fleet-work-'));
  for (const [name, content] of Object.entries(files)) await writeFile(join(workdir, name), content);
  await writeFile(join(home, 'config.json'), JSON.stringify({ store: { kind: 'postgres', url, schema } }));
  const model = await startModel(home, latencyMs);
  const env = { RUNTIME_HOME: home, RUNTIME_MODEL: 'mock-model', RUNTIME_MODEL_BASE_URL: model.url };
  // Only queues: the workers execute every run.
  const runtime = createRuntime({
    runtimeDir: home,
    workdir,
    model: 'mock-model',
    modelBaseUrl: model.url,
    queueOnly: true,
  });
  const fleet: ChildProcess[] = [];
  try {
    // The schema is made before the workers race for it.
    await runtime.store();
    fleet.push(...(await Promise.all(Array.from({ length: workers }, () => startWorker(workdir, env)))));
    // Warm-up, not counted: a worker's first run loads what the later ones reuse (modules, connections).
    await allEnded(runtime, await queue(runtime, workdir, 2 * workers, 'warm-up'));
    const ended = await allEnded(runtime, await queue(runtime, workdir, runs, 'fleet'));
    const created = Math.min(...ended.map((run) => Date.parse(run.created_at)));
    const last = Math.max(...ended.map((run) => Date.parse(run.ended_at!)));
    const overheads = ended
      .filter((run) => run.started_at && run.ended_at)
      .map(
        (run) =>
          (Date.parse(run.ended_at!) - Date.parse(run.started_at!) - turnsPerRun * latencyMs) / turnsPerRun,
      );
    return {
      runsPerMin: runs / ((last - created) / 60_000),
      overheadMsPerTurn: median(overheads),
      runs,
      wallMs: last - created,
      failed: ended.filter((run) => run.status !== 'succeeded').length,
    };
  } finally {
    for (const worker of fleet) worker.kill('SIGTERM');
    await Promise.all(fleet.map((worker) => exited(worker)));
    await runtime.close();
    model.process.kill();
    await rm(home, { recursive: true, force: true });
    await rm(workdir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  }
}

async function queue(
  runtime: ReturnType<typeof createRuntime>,
  workdir: string,
  count: number,
  what: string,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push((await runtime.start({ prompt: `${what} run ${i}`, workdir }, { execute: false })).id);
  }
  return ids;
}

/**
 * Waits for every run to end: one query of the fresh schema's runs every 200 ms, which costs the store
 * next to nothing (following each run would read all its events). The figures come from the records'
 * timestamps, not from when this notices.
 */
async function allEnded(runtime: ReturnType<typeof createRuntime>, ids: string[]): Promise<Run[]> {
  const store = await runtime.store();
  for (;;) {
    // The schema holds only this configuration's runs: a few dozen.
    const all = await store.listRuns({ limit: 500 });
    const ended = all.filter((run) => ids.includes(run.id) && finishedStatuses.includes(run.status));
    if (ended.length === ids.length) return ended;
    await sleep(200);
  }
}

/** A `keel worker --json` on `workdir`'s store; resolves once it says its store answers (`ready`). */
function startWorker(workdir: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [keelBin, 'worker', '--json', '--idle-ms', '50', '-w', workdir], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('"type":"ready"')) resolve(child);
    });
    child.once('exit', () => reject(new Error(`keel worker exited before it was ready:\n${output}`)));
  });
}

/** The scripted model in a child process (its own CPU and heap), every reply `latencyMs` late. */
async function startModel(dir: string, latencyMs: number): Promise<{ url: string; process: ChildProcess }> {
  const delay = latencyMs > 0 ? { delayMs: latencyMs } : {};
  const replies: ScriptedReply[] = [
    {
      when: { lastRole: 'user' },
      repeat: true,
      ...delay,
      toolCalls: [{ name: 'read_file', arguments: { path: 'first.txt' } }],
    },
    {
      when: { lastRole: 'tool', lastMessageIncludes: 'first-file-marker' },
      repeat: true,
      ...delay,
      toolCalls: [{ name: 'read_file', arguments: { path: 'second.txt' } }],
    },
    {
      when: { lastRole: 'tool', lastMessageIncludes: 'second-file-marker' },
      repeat: true,
      ...delay,
      text: 'Read both files.',
    },
  ];
  const script = join(dir, 'script.json');
  await writeFile(script, JSON.stringify(replies));
  const child = spawn(process.execPath, [mockModelCli, '--script', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8');
  const found = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: string) => {
      output += chunk;
      const listening = /listening on (\S+)/.exec(output)?.[1];
      if (listening) resolve(listening);
    });
    child.once('exit', () => reject(new Error(`keel-mock-model exited before listening: ${output}`)));
  });
  return { url: found, process: child };
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[sorted.length >> 1]!;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
