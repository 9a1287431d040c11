// Per-step cost of the runtime on each store: a run of N tool-call turns (each reads a different file)
// against the scripted model, which runs in a child process so that its own parsing, its record of every
// request and its garbage stay out of this process's time and heap.
//   target: ≤ 2 ms/step of runtime overhead (model time excluded), heap growth ≤ 10 MB over 200 steps.
//
// Model time is measured in the same run: the time spent inside `ModelClient.turn` (building the request
// from the whole conversation, the HTTP round trip, parsing the stream), timed around every call. The
// runtime's overhead is the rest of the wall time: events, steps, checkpoints, the session's transcript,
// the tool itself. It is printed for the whole run and for the first and last quarter of the steps (a
// cost that grows with the history shows as a last quarter dearer than the first), beside the bytes of
// checkpoint written per step. Heap growth is the heap in use after a forced GC, after the run, minus the
// same before it, once a short warm-up run has loaded every module the run uses. Whether a step costs more
// as the history grows: the process's CPU per step (model client included) in the last quarter of the
// steps against the first. KEEL_BENCH_WINDOW=<tokens> sets the model's context window (default: the
// runtime's, 32k for this model name, so long runs prune): a large one lets the history grow unpruned.
// KEEL_BENCH_V8_FLAGS='--flag --other' sets V8 flags at start as `packages/cli/bin/keel.js` sets its own.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createRuntime, ModelClient } from '@keel/runtime';
import { createTempGitRepo, type ScriptedReply } from '@keel/testkit';
import { report } from './report.ts';
import { benchStores } from './stores.ts';

const steps = Number(process.env.KEEL_BENCH_STEPS ?? 200);
const warmupSteps = 5;
const contextWindow = process.env.KEEL_BENCH_WINDOW ? Number(process.env.KEEL_BENCH_WINDOW) : undefined;
// The last line of the runtime's summary request (src/context/summary-prompt.ts).
const summaryRequestEnd = 'Summarise the conversation above so the agent can continue the task.';

// A GC on demand without asking for --expose-gc on the command line (bench/run.ts starts plain node).
setFlagsFromString('--expose-gc');
for (const flag of process.env.KEEL_BENCH_V8_FLAGS?.split(' ').filter(Boolean) ?? [])
  setFlagsFromString(flag);
const gc = runInNewContext('gc') as () => void;
const heapAfterGc = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

// Every model turn, timed: [start, end] in performance.now() milliseconds, and the process's CPU time in
// it (µs): while a turn is awaited nothing else of the run works, so that is the model client's own.
const turns: Array<[number, number]> = [];
let turnCpuUs = 0;
/** The process's CPU time (µs) at the start of each turn: a step's CPU runs from one to the next. */
const turnCpuStarts: number[] = [];
const cpuUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const turn = ModelClient.prototype.turn;
ModelClient.prototype.turn = async function timedTurn(this: ModelClient, ...args: Parameters<typeof turn>) {
  const started = performance.now();
  const cpu = cpuUs();
  turnCpuStarts.push(cpu);
  try {
    return await turn.apply(this, args);
  } finally {
    turns.push([started, performance.now()]);
    turnCpuUs += cpuUs() - cpu;
  }
};

for (const { name, store, cleanup } of await benchStores()) {
  const files: Record<string, string> = {};
  // A summary whenever the context is compacted (a long run outgrows the default 32k window).
  const replies: ScriptedReply[] = [
    { when: { lastMessageIncludes: summaryRequestEnd }, repeat: true, text: 'Read the files so far.' },
  ];
  // The warm-up run's turns, then the measured run's: each reads a different file with different
  // contents, as real work does (the same read over and over is a loop the circuit breaker stops).
  for (const count of [warmupSteps, steps]) {
    for (let i = 0; i < count; i++) {
      const file = `f${Object.keys(files).length}.txt`;
      files[file] = `${randomBytes(150).toString('base64')}\n`.repeat(6);
      replies.push({ toolCalls: [{ name: 'read_file', arguments: { path: file } }] });
    }
    replies.push({ text: 'done' });
  }
  const home = await mkdtemp(join(tmpdir(), 'keel-bench-'));
  const model = await startModelProcess(home, replies);
  const repo = await createTempGitRepo({ files });
  if (contextWindow) {
    const config = { context: { windows: { 'mock-model': contextWindow } } };
    await writeFile(join(home, 'config.json'), JSON.stringify(config));
  }
  const runtime = createRuntime({
    runtimeDir: home,
    model: 'mock-model',
    modelBaseUrl: model.url,
    env: {},
    store,
  });
  try {
    const request = { prompt: 'bench', workdir: repo.path, max_tokens: 0 };
    await runtime.run(request);
    turns.length = 0;
    turnCpuUs = 0;
    turnCpuStarts.length = 0;

    const heapBefore = heapAfterGc();
    let heapPeak = 0;
    let events = 0;
    // From each tool_call to its tool_result as delivered: the tool itself, its audit entry and one append.
    let toolMs = 0;
    let toolStarted = 0;
    let toolResults = 0;
    let liveGrowth = 0;
    let gcPauseMs = 0;
    let gcPauseCpuUs = 0;
    let gcPauseStep = -1;
    const started = performance.now();
    const cpuStarted = cpuUs();
    const result = await runtime.run(request, {
      onEvent: (event) => {
        events++;
        if (event.type === 'tool_call') toolStarted = performance.now();
        if (event.type === 'tool_result') toolMs += performance.now() - toolStarted;
        // The live heap at the last step, the run's whole state still held (one forced GC, not timed).
        if (event.type === 'tool_result' && ++toolResults === steps) {
          const paused = performance.now();
          const pausedCpu = cpuUs();
          liveGrowth = heapAfterGc() - heapBefore;
          gcPauseMs = performance.now() - paused;
          gcPauseCpuUs = cpuUs() - pausedCpu;
          gcPauseStep = turns.length - 1;
        }
        if (events % 20 === 0) heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
      },
    });
    // The forced GC at the last step (for the live heap) is no part of the run's time.
    const ended = performance.now() - gcPauseMs;
    const cpuEnded = cpuUs();
    const cpuMs = (cpuEnded - cpuStarted - gcPauseCpuUs) / 1000;
    const heapGrowth = heapAfterGc() - heapBefore;

    const checkpoints = await runtime.runs.checkpoints(result.run_id);
    const checkpointBytes = checkpoints.map((checkpoint) => JSON.stringify(checkpoint.state).length);
    // What a resume of the run would read: from its latest whole checkpoint on (every one without it).
    const chain = (await store.checkpointChain?.(result.run_id)) ?? checkpoints;
    const chainBytes = chain.reduce((sum, checkpoint) => sum + JSON.stringify(checkpoint.state).length, 0);
    const modelMs = turns.reduce((sum, [from, to]) => sum + (to - from), 0);
    const perStep = (ms: number) => ms / turns.length;
    const overhead = perStep(ended - started - modelMs);
    const quarter = Math.floor(turns.length / 4);
    const windowOverhead = (from: number, to: number) => {
      // Step i runs from the start of turn i to the start of turn i + 1 (the last one to the run's end).
      let total = 0;
      for (let i = from; i < to; i++) {
        const next = i + 1 < turns.length ? turns[i + 1]![0] : ended;
        total += next - turns[i]![0] - (turns[i]![1] - turns[i]![0]);
      }
      if (gcPauseStep >= from && gcPauseStep < to) total -= gcPauseMs;
      return total / (to - from);
    };
    // The process's CPU per step over the same windows, the forced GC left out (ms).
    const windowCpu = (from: number, to: number) => {
      const gcUs = gcPauseStep >= from && gcPauseStep < to ? gcPauseCpuUs : 0;
      return ((turnCpuStarts[to] ?? cpuEnded) - turnCpuStarts[from]! - gcUs) / 1000 / (to - from);
    };
    const cpuFirst = windowCpu(0, quarter);
    const cpuLast = windowCpu(turns.length - quarter, turns.length);
    const modelRef = { name: 'model time per step, same run (ModelClient.turn)', value: perStep(modelMs) };
    const commitUs = await rawCommitMicros(home);
    report({
      bench: `agent_step_${name}`,
      figure: `runtime overhead per step, ${steps} steps (wall time minus model time)`,
      value: overhead,
      unit: 'ms/step',
      target: '≤ 2 ms/step',
      reference: modelRef,
      details: {
        status: result.status,
        steps,
        model_turns: turns.length,
        events,
        wall_ms_per_step: round(perStep(ended - started)),
        // CPU time is steadier than wall time on a busy machine: the same split, in this process's CPU.
        cpu_overhead_ms_per_step: round(perStep(cpuMs - turnCpuUs / 1000)),
        cpu_model_ms_per_step: round(perStep(turnCpuUs / 1000)),
        tool_ms_per_step: round(perStep(toolMs)),
        overhead_first_quarter_ms: round(windowOverhead(0, quarter)),
        overhead_last_quarter_ms: round(windowOverhead(turns.length - quarter, turns.length)),
        // Flat means the last quarter's CPU per step within 1.2x of the first's (issue #44).
        cpu_ms_per_step_first_quarter: round(cpuFirst),
        cpu_ms_per_step_last_quarter: round(cpuLast),
        cpu_last_vs_first_quarter: round(cpuLast / cpuFirst),
        // A machine reference for the store's share: one raw node:sqlite commit of a 1.5 KB row here.
        sqlite_commit_us: round(commitUs),
        overhead_in_commits: round((overhead * 1000) / commitUs),
      },
    });
    report({
      bench: `agent_step_${name}`,
      figure: `heap growth over ${steps} steps (heap used after GC, after the run minus before it)`,
      value: heapGrowth / 1e6,
      unit: 'MB',
      target: '≤ 10 MB',
      details: {
        live_growth_at_last_step_mb: round(liveGrowth / 1e6),
        peak_growth_without_gc_mb: round(Math.max(0, heapPeak - heapBefore) / 1e6),
      },
    });
    // A step's checkpoint as the history grows: the 90th percentile of the first and last quarter (a tool
    // batch's, which holds the tool's output). The few whole checkpoints, which let a resume read only from
    // them on, show in the maximum; what a resume reads, in the chain.
    const quarter90 = (from: number) =>
      percentile(checkpointBytes.slice(from, from + Math.floor(checkpointBytes.length / 4)), 0.9);
    report({
      bench: `agent_step_${name}`,
      figure: 'checkpoint size (JSON), 90th percentile over the last quarter of the run',
      value: quarter90(checkpointBytes.length - Math.floor(checkpointBytes.length / 4)),
      unit: 'bytes',
      details: {
        checkpoints: checkpoints.length,
        first_quarter_p90_bytes: quarter90(0),
        max_bytes: Math.max(...checkpointBytes),
        total_bytes: checkpointBytes.reduce((sum, bytes) => sum + bytes, 0),
        resume_reads_checkpoints: chain.length,
        resume_reads_bytes: chainBytes,
      },
    });
  } finally {
    await runtime.close();
    model.process.kill();
    await repo.remove();
    await rm(home, { recursive: true, force: true });
    await cleanup();
  }
}

/** Starts `keel-mock-model` (testkit's CLI, from its sources) on a script file; resolves once it listens. */
async function startModelProcess(
  dir: string,
  replies: ScriptedReply[],
): Promise<{ url: string; process: ChildProcess }> {
  const script = join(dir, 'script.json');
  await writeFile(script, JSON.stringify(replies));
  const cli = fileURLToPath(new URL('../packages/testkit/src/cli.ts', import.meta.url));
  const child = spawn(process.execPath, [cli, '--script', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: string) => {
      output += chunk;
      const found = /listening on (\S+)/.exec(output)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', () => reject(new Error(`keel-mock-model exited before listening: ${output}`)));
  });
  return { url, process: child };
}

/** Median time of a raw autocommit insert (WAL, synchronous=NORMAL, as the store's) in `dir`, in µs. */
async function rawCommitMicros(dir: string): Promise<number> {
  const db = new DatabaseSync(join(dir, 'raw-commit.db'));
  try {
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; CREATE TABLE t (data TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO t (data) VALUES (?)');
    const row = 'x'.repeat(1500);
    const times: number[] = [];
    for (let i = 0; i < 500; i++) {
      const started = performance.now();
      insert.run(row);
      times.push((performance.now() - started) * 1000);
    }
    return times.sort((a, b) => a - b)[times.length >> 1]!;
  } finally {
    db.close();
  }
}

function percentile(values: readonly number[], rank: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * rank))]!;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
