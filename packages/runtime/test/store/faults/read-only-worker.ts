// Started by read-only.test.ts as an unprivileged user (root writes any file whatever its mode): a runtime
// on a database file it may read but not write. Prints a JSON report of what worked and what failed.
import { createRuntime, KeelError } from '../../../src/index.ts';

const [home, runId, sessionId, queuedId] = process.argv.slice(2) as [string, string, string, string];
const runtime = createRuntime({
  runtimeDir: home,
  model: 'mock-model',
  modelBaseUrl: 'http://127.0.0.1:9',
  env: {},
});
const outcome = async (work: () => unknown) => {
  try {
    return { ok: await work() };
  } catch (error) {
    return { error: KeelError.is(error) ? error.toJSON() : String(error) };
  }
};
const report = {
  runs: await outcome(async () => (await runtime.runs.list()).map((run) => run.id)),
  events: await outcome(async () => (await runtime.runs.events(runId)).map((event) => event.seq)),
  messages: await outcome(() => runtime.sessions.detail(sessionId).messages.length),
  start: await outcome(() => runtime.start({ prompt: 'again', workdir: home })),
  append: await outcome(() => runtime.sessions.append(sessionId, { role: 'user', content: 'more' })),
  cancel: await outcome(() => runtime.runs.cancel(queuedId)),
};
await runtime.close();
process.stdout.write(`${JSON.stringify(report)}\n`);
