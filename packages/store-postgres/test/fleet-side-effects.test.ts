import { randomInt } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '@keel/runtime';
import { type ScriptedReply, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { jsonLines, startKeel, waitFor } from '../../cli/test/keel-process.ts';
import { metaEchoScript } from '../../runtime/test/mcp/meta-echo-server.ts';
import { createPostgresStore } from '../src/index.ts';
import { dropSchema, pgUrl, randomSchema } from './pg-test-store.ts';

// Two real `keel worker`s on one PostgreSQL schema; the one running a long command (no sandbox) is killed
// with SIGKILL. Its command dies with it, so the recovered run's second try of the same command never runs
// beside the first; and an MCP tool called again by the recovered run is told it is the same call (same
// idempotency key), on attempt 2.

// Long enough that a live worker on a busy machine keeps its lease; short enough to recover quickly.
const leaseMs = 3000;

describe.skipIf(!pgUrl || process.platform !== 'linux')('side effects after a worker is killed', () => {
  test('the dead worker’s command is gone before the run runs it again; MCP sees attempt 2 of the same call', async () => {
    const schema = randomSchema();
    const home = await mkdtemp(join(tmpdir(), 'keel-fleet-effects-'));
    const workdir = await mkdtemp(join(tmpdir(), 'keel-fleet-effects-work-'));
    const mcpLog = join(home, 'mcp-calls.jsonl');
    // A duration no other process sleeps for: the first command's processes are found by it.
    const marker = `5${randomInt(100_000, 999_999)}.5`;
    // The first try records its shell's and its background job's pids and sleeps; a second try says
    // which of them still run (none may), then ends at once.
    const command =
      'if [ -e first.pids ]; then ' +
      'for p in $(cat first.pids); do s=$(cut -d" " -f3 /proc/$p/stat 2>/dev/null); ' +
      '[ -n "$s" ] && [ "$s" != Z ] && [ "$s" != X ] && echo "still running $p"; done; ' +
      'echo second try; ' +
      `else sleep ${marker} & echo $$ $! > first.pids; wait; fi`;
    const script: ScriptedReply[] = [
      {
        when: { lastRole: 'user' },
        toolCalls: [
          { id: 'call_who', name: 'mcp_call', arguments: { server: 'meta', tool: 'whoami' } },
          { id: 'call_cmd', name: 'exec_command', arguments: { command, timeout_ms: 600_000 } },
        ],
      },
      { when: { lastRole: 'tool' }, text: 'Both tools ran.' },
    ];
    await using model = await startMockModel({ script });
    const config = {
      store: { kind: 'postgres', url: pgUrl!, schema },
      runs: { lease_ms: leaseMs },
      sandbox: { enabled: false },
      security: { allowed_commands: ['*'] },
      mcp: {
        servers: [
          {
            name: 'meta',
            transport: 'stdio',
            command: process.execPath,
            args: ['-e', metaEchoScript(mcpLog)],
          },
        ],
      },
    };
    await writeFile(join(home, 'config.json'), JSON.stringify(config));
    const env = { RUNTIME_HOME: home, RUNTIME_MODEL: 'mock-model', RUNTIME_MODEL_BASE_URL: model.url };
    const runtime = createRuntime({
      runtimeDir: home,
      workdir,
      model: 'mock-model',
      modelBaseUrl: model.url,
    });
    const store = await createPostgresStore({ url: pgUrl!, schema });
    const workers = [0, 1].map(() => startKeel(['worker', '--json', '--idle-ms', '50', '-w', workdir], env));
    try {
      const run = await runtime.start(
        { prompt: 'call the server, then run the command', workdir },
        { execute: false },
      );
      const victim = await waitFor(() =>
        workers.find((worker) => taken(worker.output.stdout).includes(run.id)),
      );
      // Mid-command: its sleep runs (and the MCP call before it is done).
      await waitFor(async () => (await processesWith(`sleep ${marker}`)).length > 0);
      const first = await processesWith(marker);
      expect(first.length).toBeGreaterThanOrEqual(2);
      victim.child.kill('SIGKILL');
      await victim.done;

      // By pid: the shell, its background sleep and everything else of the command are gone.
      let left: number[] = [];
      await waitFor(async () => {
        left = await stillRunning(first);
        return left.length === 0;
      }, 10_000).catch(() => {
        throw new Error(`the dead worker's command still runs: ${left.join(', ')}`);
      });
      await waitFor(async () => (await store.getRun(run.id)).status === 'succeeded', 30_000);

      const records = await store.listEvents(run.id);
      const results = records.flatMap((record) =>
        record.type === 'tool_result' ? [record.event as { tool_call_id: string; result: string }] : [],
      );
      // The batch ran twice: once cut short by the kill (no result), then whole.
      const secondTry = results.find((result) => result.tool_call_id === 'call_cmd')!.result;
      expect(secondTry).toContain('second try');
      expect(secondTry).not.toContain('still running');
      expect(records.filter((record) => record.type === 'run_recovered')).toHaveLength(1);

      const calls = (await readFile(mcpLog, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const key = `${run.id}:call_who`;
      expect(calls).toEqual([
        {
          'keel/run_id': run.id,
          'keel/attempt': 1,
          'keel/tool_call_id': 'call_who',
          'keel/idempotency_key': key,
        },
        {
          'keel/run_id': run.id,
          'keel/attempt': 2,
          'keel/tool_call_id': 'call_who',
          'keel/idempotency_key': key,
        },
      ]);
    } finally {
      for (const worker of workers) worker.child.kill('SIGKILL');
      await Promise.all(workers.map((worker) => worker.done));
      for (const pid of await processesWith(marker)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      }
      await runtime.close();
      await store.close();
      await dropSchema(pgUrl!, schema);
      await rm(home, { recursive: true, force: true });
      await rm(workdir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** Live processes (zombies excluded) whose command line holds `text`, from /proc. */
async function processesWith(text: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const args = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (args.replaceAll('\0', ' ').includes(text) && (await isLive(Number(entry)))) found.push(Number(entry));
  }
  return found;
}

async function stillRunning(pids: number[]): Promise<number[]> {
  const live: number[] = [];
  for (const pid of pids) if (await isLive(pid)) live.push(pid);
  return live;
}

/** A process that is there and not a zombie nobody reaped yet. */
async function isLive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  const state = stat?.slice(stat.lastIndexOf(')') + 2)[0];
  return state !== undefined && state !== 'Z' && state !== 'X';
}

/** The run ids a `keel worker --json` has taken so far. */
function taken(stdout: string): string[] {
  const complete = stdout.slice(0, stdout.lastIndexOf('\n') + 1);
  return jsonLines<{ type: string; run_id: string }>(complete)
    .filter((line) => line.type === 'taken')
    .map((line) => line.run_id);
}
