// A process that starts a run (which spawns a sub-agent) and then only waits to be killed: started by
// sub-agent-recovery.test.ts, which kills it with SIGKILL mid-way. Arguments: runtime dir, model URL,
// workdir, prompt. Prints the run's id.
import { createRuntime } from '../../src/index.ts';

const [runtimeDir, modelUrl, workdir, prompt] = process.argv.slice(2);
const runtime = createRuntime({
  runtimeDir: runtimeDir!,
  model: 'mock-model',
  modelBaseUrl: modelUrl!,
  env: {},
});
const run = await runtime.start({ prompt: prompt!, workdir: workdir! });
process.stdout.write(`run ${run.id}\n`);
setInterval(() => undefined, 60_000);
