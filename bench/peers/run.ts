// Keel beside two peers on the same task: `npm run bench:peers` (not part of CI or `npm run bench`).
// Each agent reads N files, one tool call per model turn, against the same local scripted model server
// (chat completions for Keel and opencode, the Responses API for Codex). Installs @openai/codex and
// opencode-ai on first use (pinned, cached under ~/.cache/keel/test-agents). Prints wall time, CPU time
// and peak RSS of each whole process (GNU time), the cost of one extra step, and the ratios to Keel.
// PEER_STEPS=10,40,80,300 measures each agent at each of those step counts instead (one run each unless
// PEER_REPEATS says otherwise): how its wall time, CPU time and peak RSS ("Maximum resident set size" of
// GNU time) grow with a long run (issue #28: peak RSS of a 300-step `keel run`).
// PEER_FILE_BYTES=<n> pads each file with n bytes of text, so the conversation reaches the token counts of
// real reads (the scripted model reports characters / 4 as usage), so `keel run` prunes and compacts
// sooner (Keel's summary requests are answered, and counted; the peers' are not).
// PEER_KEEL_BIN=<path> runs another `keel` bin (a variant, or an older build) in place of this one.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTempGitRepo, type ScriptedReply, startMockModel } from '@keel/testkit';
import type { AgentAdapter } from '../../packages/workbench/src/runners/cli/agent.ts';
import { codexAdapter, opencodeAdapter } from '../../packages/workbench/src/runners/cli/index.ts';
import { type AgentName, ensureAgent } from '../../packages/workbench/test/runners/cli/ensure-agents.ts';

const small = Number(process.env.PEER_STEPS_SMALL ?? 2);
const large = Number(process.env.PEER_STEPS_LARGE ?? 12);
const repeats = Number(process.env.PEER_REPEATS ?? 3);
const keelBin =
  process.env.PEER_KEEL_BIN ?? join(import.meta.dirname, '..', '..', 'packages', 'cli', 'bin', 'keel.js');
const fileBytes = Number(process.env.PEER_FILE_BYTES ?? 0);
// The last line of Keel's summary request (packages/runtime/src/context/summary-prompt.ts).
const summaryRequestEnd = 'Summarise the conversation above so the agent can continue the task.';

interface Measure {
  wallS: number;
  cpuS: number;
  rssMb: number;
  /** Keel's summary requests: how often the run compacted its history. */
  compactions: number;
}

type Peer = 'keel' | AgentName;

/** One tool call per turn, each answered by the next once the previous file's content comes back. */
function script(peer: Peer, steps: number): ScriptedReply[] {
  const call = (i: number) =>
    peer === 'codex'
      ? { name: 'exec_command', arguments: { cmd: `cat f${i}.txt` } }
      : peer === 'opencode'
        ? { name: 'read', arguments: { filePath: `f${i}.txt` } }
        : { name: 'read_file', arguments: { path: `f${i}.txt` } };
  const replies: ScriptedReply[] = [];
  // Past ~370 steps (or sooner with PEER_FILE_BYTES) Keel compacts its history within its 32k window for
  // this model name. First: a summary request also ends on the latest file's content.
  if (peer === 'keel')
    replies.push({
      when: { lastMessageIncludes: summaryRequestEnd },
      repeat: true,
      text: 'Read the files so far.',
    });
  for (let i = 1; i <= steps; i++) {
    // The first turn matches whatever comes first: Codex's first request does not end on the user's words.
    if (i === 1) replies.push({ toolCalls: [call(i)] });
    else replies.push({ when: { lastMessageIncludes: `content of file ${i - 1}.` }, toolCalls: [call(i)] });
  }
  replies.push({ when: { lastMessageIncludes: `content of file ${steps}.` }, text: 'Read them all.' });
  return replies;
}

/** PEER_FILE_BYTES of text different in each file, in lines of about 80 characters, as source files are. */
function padding(seed: number): string {
  const line = (n: number) =>
    `${`line ${n} of ${seed}: `.padEnd(40, '-')}${(seed * 7919 + n * 104_729).toString(36).repeat(8)}`;
  let text = '';
  for (let n = 0; text.length < fileBytes; n++) text += `${line(n).slice(0, 79)}\n`;
  return text.slice(0, fileBytes);
}

/**
 * Runs `argv` under GNU time: the figures of the whole process tree's main process. Asynchronously: the
 * scripted model server answering it lives in this process, so blocking here would leave it unanswered.
 */
async function timed(argv: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Measure> {
  const child = spawn('/usr/bin/time', ['-f', 'TIME %e %U %S %M', ...argv], {
    env,
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout = (stdout + chunk).slice(-3000);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const [status] = (await once(child, 'close')) as [number | null];
  const line = /TIME (\S+) (\S+) (\S+) (\S+)/.exec(stderr);
  if (status !== 0 || !line)
    throw new Error(`${argv[0]} failed (${status}): ${stderr.slice(-3000)}\n${stdout}`);
  const [, wall, user, sys, rssKb] = line.map(Number);
  return { wallS: wall!, cpuS: user! + sys!, rssMb: rssKb! / 1024, compactions: 0 };
}

async function runOnce(
  peer: Peer,
  steps: number,
  prefixes: Partial<Record<AgentName, string>>,
): Promise<Measure> {
  const model = await startMockModel({ script: script(peer, steps) });
  const files = Object.fromEntries(
    Array.from({ length: steps }, (_, i) => [`f${i + 1}.txt`, `content of file ${i + 1}.\n${padding(i)}`]),
  );
  const repo = await createTempGitRepo({ files });
  const home = await mkdtemp(join(tmpdir(), `peer-${peer}-`));
  const prompt = `Read the files f1.txt to f${steps}.txt one by one.`;
  const path = process.env.PATH ?? '';
  // A run that ends early (an unmatched turn, a limit) would measure fewer steps than it says.
  const complete = (measured: Measure) => {
    const unused = model.remaining - (peer === 'keel' ? 1 : 0);
    if (unused > 0) throw new Error(`${peer} stopped with ${unused} scripted turns unused`);
    const summaries = model.requests.filter((each) => {
      const messages = (each.body as { messages?: Array<{ content?: unknown }> } | undefined)?.messages;
      return String(messages?.at(-1)?.content ?? '').includes(summaryRequestEnd);
    });
    return { ...measured, compactions: summaries.length };
  };
  try {
    if (peer === 'keel') {
      // Reading file after file is what the loop detector is there to stop; the peers have none.
      await writeFile(join(home, 'config.json'), JSON.stringify({ circuit_breaker: { enabled: false } }));
      const env = {
        PATH: path,
        HOME: home,
        RUNTIME_HOME: home,
        RUNTIME_MODEL: 'mock-model',
        RUNTIME_MODEL_BASE_URL: model.url,
      };
      return complete(
        await timed([process.execPath, keelBin, 'run', prompt, '-w', repo.path], env, repo.path),
      );
    }
    const adapter: AgentAdapter = peer === 'codex' ? codexAdapter : opencodeAdapter;
    const invocation = await adapter.prepare({
      request: {
        prompt,
        workdir: repo.path,
        model: { model: 'mock-model', baseUrl: model.url, apiKey: 'sk-bench' },
        mcpServers: [],
        skillDirs: [],
        config: { name: peer, kind: peer } as never,
        signal: new AbortController().signal,
      },
      home,
      model: 'mock-model',
      env: { PATH: path },
      workdirs: [repo.path],
    });
    // Codex's own sandbox cannot start in a container like this one, and a read it cannot run never
    // reaches the next turn: the bench measures the agent, so it runs without that sandbox here.
    if (peer === 'codex') {
      const config = join(home, 'config.toml');
      await writeFile(
        config,
        (await readFile(config, 'utf8')).replace(
          /^sandbox_mode = .*$/m,
          'sandbox_mode = "danger-full-access"',
        ),
      );
    }
    const bin = join(
      prefixes[peer as AgentName]!,
      'node_modules',
      '.bin',
      peer === 'codex' ? 'codex' : 'opencode',
    );
    return complete(
      await timed(
        [bin, ...invocation.args, ...invocation.tail],
        { PATH: path, ...invocation.env },
        repo.path,
      ),
    );
  } catch (error) {
    const seen = model.requests.map((each) => `${each.method} ${each.path}`).join(', ');
    throw new Error(`${(error as Error).message}\nrequests the model server saw: ${seen || 'none'}`);
  } finally {
    await model.close();
    await repo.remove();
    await rm(home, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function measure(
  peer: Peer,
  steps: number,
  prefixes: Partial<Record<AgentName, string>>,
  times = repeats,
): Promise<Measure> {
  const runs: Measure[] = [];
  for (let i = 0; i < times; i++) {
    process.stderr.write(`${peer}, ${steps} steps, run ${i + 1} of ${times}\n`);
    runs.push(await runOnce(peer, steps, prefixes));
  }
  return {
    wallS: median(runs.map((run) => run.wallS)),
    cpuS: median(runs.map((run) => run.cpuS)),
    rssMb: Math.max(...runs.map((run) => run.rssMb)),
    compactions: Math.max(...runs.map((run) => run.compactions)),
  };
}

// PEERS=codex,opencode measures a subset (the ratios need keel in it); only the agents named are installed.
const peers = (process.env.PEERS ?? 'keel,codex,opencode').split(',') as Peer[];
const prefixes: Partial<Record<AgentName, string>> = {};
for (const peer of peers) if (peer !== 'keel') prefixes[peer] = await ensureAgent(peer);
const rows: Record<string, number | string>[] = [];
const stepCounts = process.env.PEER_STEPS?.split(',').map(Number);
if (stepCounts) {
  for (const steps of stepCounts) {
    for (const peer of peers) {
      const { wallS, cpuS, rssMb, compactions } = await measure(
        peer,
        steps,
        prefixes,
        Number(process.env.PEER_REPEATS ?? 1),
      );
      rows.push({
        agent: peer,
        steps,
        wall_s: wallS,
        cpu_s: Number(cpuS.toFixed(2)),
        peak_rss_mb: Math.round(rssMb),
        ...(peer === 'keel' ? { compactions } : {}),
      });
    }
  }
  for (const row of rows) {
    const keel = rows.find((each) => each.agent === 'keel' && each.steps === row.steps);
    if (keel) row.rss_vs_keel = (Number(row.peak_rss_mb) / Number(keel.peak_rss_mb)).toFixed(1);
    console.log(JSON.stringify({ bench: 'peers', ...row }));
  }
  process.exit(0);
}
for (const peer of peers) {
  const few = await measure(peer, small, prefixes);
  const many = await measure(peer, large, prefixes);
  const stepMs = ((many.wallS - few.wallS) / (large - small)) * 1000;
  rows.push({
    agent: peer,
    [`wall_s_${small}_steps`]: few.wallS,
    [`wall_s_${large}_steps`]: many.wallS,
    ms_per_extra_step: Math.round(stepMs),
    cpu_s: Number(many.cpuS.toFixed(2)),
    peak_rss_mb: Math.round(many.rssMb),
  });
}
const keel = rows.find((row) => row.agent === 'keel') ?? rows[0]!;
for (const row of rows) {
  row.step_vs_keel = (Number(row.ms_per_extra_step) / Math.max(1, Number(keel.ms_per_extra_step))).toFixed(1);
  row.rss_vs_keel = (Number(row.peak_rss_mb) / Number(keel.peak_rss_mb)).toFixed(1);
  console.log(JSON.stringify({ bench: 'peers', ...row }));
}
