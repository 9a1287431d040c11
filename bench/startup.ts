// Start-up of the built, installed `keel`: the packages are packed and installed into a new project in the
// temp folder, then timed as a user runs them. Prints JSON lines; each figure is the median of several
// runs, beside a bare `node -e 0` measured in the same run (the floor no Node program goes under).
//   keel --version                          target ≤ 150 ms wall
//   keel run, process start → first request target ≤ 150 ms (issue #44)
//   keel run, peak RSS on a 40-step task     target ≤ 150 MB
// STARTUP_BASELINE=<another checkout, built> installs that one too and times the two alternately, run by
// run, so a busy machine weighs on both alike; each figure then has `baseline_*` beside it.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTempGitRepo, type ScriptedReply, startMockModel } from '@keel/testkit';
import * as packedInstall from '../scripts/packed-install.ts';

const runs = Number(process.env.STARTUP_RUNS ?? 9);
const steps = 40;
const baselineRoot = process.env.STARTUP_BASELINE;

const scratch = await mkdtemp(join(tmpdir(), 'keel-startup-'));
/** The installed `keel` of each tree timed: this one, then the baseline's. */
const keels: string[] = [];
// Each tree packs its own packages (the module finds them beside itself).
for (const [name, install] of [
  ['this', packedInstall],
  ...(baselineRoot
    ? [['baseline', await import(pathToFileURL(join(baselineRoot, 'scripts/packed-install.ts')).href)]]
    : []),
] as [string, typeof packedInstall][]) {
  const tarballs = await install.packAll(join(scratch, name, 'tarballs'));
  const project = await install.installProject(join(scratch, name, 'project'), tarballs);
  keels.push(join(project.dir, 'node_modules', '.bin', 'keel'));
}
// Reports the process's peak RSS when it exits: Node's own figure, the same on every machine.
const rssReporter = join(scratch, 'report-rss.mjs');
await writeFile(
  rssReporter,
  "import { writeSync } from 'node:fs';\nprocess.on('exit', () => writeSync(2, '\\nmax_rss_kb=' + process.resourceUsage().maxRSS + '\\n'));\n",
);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** `{key: median of this tree}`, plus `{baseline_key: median of the baseline}` when there is one. */
function medians(key: string, samples: number[][]): Record<string, number> {
  const [own = [], baseline] = samples;
  return {
    [key]: Math.round(median(own)),
    ...(baseline ? { [`baseline_${key}`]: Math.round(median(baseline)) } : {}),
  };
}

/** Wall time of one process, and what it wrote to stderr. */
function timed(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ ms: number; stderr: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) =>
    child.on('close', (code) =>
      code === 0
        ? resolve({ ms: performance.now() - started, stderr })
        : reject(new Error(`exit ${code}: ${stderr}`)),
    ),
  );
}

/** Wall times of `args(keel)` for each tree, taken in turn. */
async function wall(args: (keel: string) => string[]): Promise<number[][]> {
  // Fills Node's compile cache, as any earlier use of the program has.
  for (const keel of keels) await timed(args(keel));
  const times: number[][] = keels.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [k, keel] of keels.entries()) times[k]?.push((await timed(args(keel))).ms);
  }
  return times;
}

const node = median((await wall(() => ['-e', '0']))[0] ?? []);
const version = await wall((keel) => [keel, '--version']);
console.log(
  JSON.stringify({
    bench: 'startup',
    figure: 'keel --version',
    ...medians('median_ms', version),
    node_e0_ms: Math.round(node),
    ratio_to_node: +(median(version[0] ?? []) / node).toFixed(2),
    target_ms: 150,
  }),
);

const files: Record<string, string> = {};
// Unlike contents, so that the circuit breaker's loop detection sees forty different steps.
const line = (i: number, j: number) => createHash('sha256').update(`${i}:${j}`).digest('hex');
for (let i = 0; i < steps; i++) {
  files[`src/file-${i}.txt`] = Array.from({ length: 40 }, (_, j) => line(i, j)).join('\n');
}
const repo = await createTempGitRepo({ files });
const env = { ...process.env };

// Process start to the model server seeing the first chat request.
const firstRequest: number[][] = keels.map(() => []);
for (let i = 0; i <= runs; i++) {
  for (const [k, keel] of keels.entries()) {
    await using model = await startMockModel({ script: [{ text: 'ok' }] });
    const started = performance.now();
    const done = timed(
      [keel, 'run', 'hi', '--workdir', repo.path, '--model', 'mock-model', '--model-base-url', model.url],
      { ...env, RUNTIME_HOME: join(scratch, `home-${k}`) },
    );
    await model.waitForRequests(1, { timeoutMs: 30_000 });
    const ms = performance.now() - started;
    await done;
    if (i > 0) firstRequest[k]?.push(ms); // the first run fills the compile cache
  }
}
console.log(
  JSON.stringify({
    bench: 'startup',
    figure: 'keel run: start to first model request',
    ...medians('median_ms', firstRequest),
    ratio_to_node: +(median(firstRequest[0] ?? []) / node).toFixed(2),
    target_ms: 150,
  }),
);

// Peak memory of a whole run of 40 tool steps (a different file read at each, then the answer).
const script: ScriptedReply[] = [];
for (let i = 0; i < steps; i++)
  script.push({ toolCalls: [{ name: 'read_file', arguments: { path: `src/file-${i}.txt` } }] });
script.push({ text: 'Read all forty.' });
const rss: number[][] = keels.map(() => []);
for (let i = 0; i < 3; i++) {
  for (const [k, keel] of keels.entries()) {
    await using model = await startMockModel({ script });
    const { stderr } = await timed(
      [
        '--import',
        rssReporter,
        keel,
        'run',
        'read every file in src',
        '--workdir',
        repo.path,
        '--model',
        'mock-model',
        '--model-base-url',
        model.url,
        '--max-tokens',
        '100000000',
      ],
      { ...env, RUNTIME_HOME: join(scratch, `home-${k}`) },
    );
    rss[k]?.push(Number(/max_rss_kb=(\d+)/.exec(stderr)?.[1]) / 1024);
  }
}
const bare =
  Number(/max_rss_kb=(\d+)/.exec((await timed(['--import', rssReporter, '-e', '0'])).stderr)?.[1]) / 1024;
console.log(
  JSON.stringify({
    bench: 'startup',
    figure: `keel run: peak RSS, ${steps} steps`,
    ...medians('median_mb', rss),
    node_e0_mb: Math.round(bare),
    ratio_to_node: +(median(rss[0] ?? []) / bare).toFixed(2),
    target_mb: 150,
  }),
);

await repo.remove();
await rm(scratch, { recursive: true, force: true });
