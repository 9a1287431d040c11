import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ScriptedReply, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { waitFor } from '../../cli/test/keel-process.ts';
import { createPostgresStore } from '../src/index.ts';
import { dropSchema, pgUrl, randomSchema } from './pg-test-store.ts';

// keel-web on a PostgreSQL store, with no worker at all: a keel-web killed mid-run leaves its runs to the
// next keel-web, whose own executor takes them over once their lease runs out and finishes them.

const leaseMs = 1000;
const keelWebBin = join(import.meta.dirname, '..', '..', 'server', 'bin', 'keel-web.js');

describe.skipIf(!pgUrl)('keel-web recovering orphaned runs by itself', () => {
  test('a keel-web killed mid-run: the next keel-web (no workers) finishes its runs, with no manual call', async () => {
    const schema = randomSchema();
    const held = Promise.withResolvers<void>();
    const jobs = ['orphan job a', 'orphan job b'];
    const script: ScriptedReply[] = jobs.flatMap((job) => [
      { when: { lastMessageIncludes: job }, until: held.promise, text: 'never heard' },
      { when: { lastMessageIncludes: job }, text: `finished ${job}` },
    ]);
    await using model = await startMockModel({ script });
    const home = await mkdtemp(join(tmpdir(), 'keel-web-orphans-'));
    const config = { store: { kind: 'postgres', url: pgUrl!, schema }, runs: { lease_ms: leaseMs } };
    await writeFile(join(home, 'config.json'), JSON.stringify(config));
    const env = { RUNTIME_HOME: home, RUNTIME_MODEL: 'mock-model', RUNTIME_MODEL_BASE_URL: model.url };
    const first = startWeb(home, env);
    const store = await createPostgresStore({ url: pgUrl!, schema });
    let second: ReturnType<typeof startWeb> | undefined;
    try {
      const url = await first.url;
      const ids: string[] = [];
      for (const prompt of jobs) {
        const response = await fetch(`${url}/runtime/runs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ prompt, workdir: home }),
        });
        ids.push(((await response.json()) as { id: string }).id);
      }
      // The first keel-web is mid-turn on both once the model holds both requests.
      await waitFor(() =>
        jobs.every((job) => model.chatRequests.some((body) => JSON.stringify(body).includes(job))),
      );
      const owners = await Promise.all(ids.map(async (id) => (await store.getRun(id)).lease_owner));
      expect(owners.every((owner) => owner?.startsWith('web:'))).toBe(true);
      first.child.kill('SIGKILL');
      await first.done;
      held.resolve();

      second = startWeb(home, env);
      await second.url;
      await waitFor(async () => {
        const now = await Promise.all(ids.map((id) => store.getRun(id)));
        return now.every((run) => run.status === 'succeeded');
      }, 30_000);

      for (const [index, id] of ids.entries()) {
        const records = await store.listEvents(id);
        expect(records.map((record) => record.seq)).toEqual(records.map((_, at) => at + 1));
        expect(records.filter((record) => record.type === 'done')).toHaveLength(1);
        expect(records.at(-1)?.type).toBe('done');
        const recovered = records.filter((record) => record.type === 'run_recovered');
        expect(recovered.map((record) => record.event)).toEqual([
          expect.objectContaining({ lost_owner: owners[index], recovery: 1 }),
        ]);
        // The second keel-web recovered it and ran every step after the first keel-web's abandoned one.
        const by = recovered[0]!.event.recovered_by as string;
        expect(by).toMatch(/^web:/);
        expect(by).not.toBe(owners[index]);
        const steps = await store.listSteps(id);
        expect(steps[0]).toMatchObject({ worker_id: owners[index], status: 'abandoned' });
        expect(steps.slice(1).map((step) => step.worker_id)).toEqual(steps.slice(1).map(() => by));
        const { entries } = await store.listAudit({ event: 'run_control', run_id: id });
        expect(entries.map((entry) => entry.args_summary)).toEqual([
          `recover (automatic 1/3, lease of ${owners[index]} expired)`,
        ]);
      }
      expect(second.output()).toContain('run recovered');
    } finally {
      first.child.kill('SIGKILL');
      second?.child.kill('SIGKILL');
      await Promise.all([first.done, second?.done]);
      await store.close();
      await dropSchema(pgUrl!, schema);
      await rm(home, { recursive: true, force: true });
    }
  }, 60_000);
});

/** A real `keel-web run` on `home`'s configuration: its URL once it listens, its output, its end. */
function startWeb(home: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [keelWebBin, 'run', '--port', '0', '-w', home], {
    env: { ...process.env, ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const done = new Promise((resolve) => child.on('close', resolve));
  const url = waitFor(() => output.match(/listening on (http:\/\/\S+)/)?.[1]);
  url.catch(() => undefined);
  return { child, done, url, output: () => output };
}
