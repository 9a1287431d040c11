// Per-step cost of the runtime on each store: a run of N tool-call turns against the scripted model on
// loopback. The model answers at once, so the time per step is the runtime's own overhead (events,
// steps and a checkpoint per model turn and per tool batch) plus one local HTTP round trip.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '@keel/runtime';
import { createTempGitRepo, type ScriptedReply, startMockModel } from '@keel/testkit';
import { benchStores } from './stores.ts';

const steps = Number(process.env.KEEL_BENCH_STEPS ?? 200);

for (const { name, store, cleanup } of await benchStores()) {
  // Each turn reads a different file with different contents, as real work does (the same read over and
  // over is a loop the circuit breaker stops).
  const script: ScriptedReply[] = [];
  const files: Record<string, string> = {};
  for (let i = 0; i < steps; i++) {
    files[`f${i}.txt`] = `${randomBytes(150).toString('base64')}\n`.repeat(6);
    script.push({ toolCalls: [{ name: 'read_file', arguments: { path: `f${i}.txt` } }] });
  }
  script.push({ text: 'done' });
  const model = await startMockModel({ script });
  const repo = await createTempGitRepo({ files });
  const home = await mkdtemp(join(tmpdir(), 'keel-bench-'));
  const runtime = createRuntime({
    runtimeDir: home,
    model: 'mock-model',
    modelBaseUrl: model.url,
    env: {},
    store,
  });
  try {
    let events = 0;
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const result = await runtime.run(
      { prompt: 'bench', workdir: repo.path, max_tokens: 0 },
      { onEvent: () => void events++ },
    );
    const elapsed = performance.now() - started;
    const checkpoints = (await runtime.runs.checkpoints(result.run_id)).length;
    console.log(
      JSON.stringify({
        bench: `agent_step_${name}`,
        steps,
        events,
        checkpoints,
        ms_per_step: Number((elapsed / (steps + 1)).toFixed(3)),
        total_ms: Math.round(elapsed),
        heap_growth_mb: Number(((process.memoryUsage().heapUsed - heapBefore) / 1e6).toFixed(1)),
      }),
    );
  } finally {
    await runtime.close();
    await model.close();
    await repo.remove();
    await rm(home, { recursive: true, force: true });
    await cleanup();
  }
}
