import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, type Run } from '@keel/runtime';
import { type ScriptedReply, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { jsonLines, keel, startKeel, waitFor } from '../../cli/test/keel-process.ts';
import { createPostgresStore } from '../src/index.ts';
import { dropSchema, pgUrl, randomSchema } from './pg-test-store.ts';

// A fleet of real `keel worker` processes on one PostgreSQL schema: a worker killed mid-run leaves its run
// to the others, which recover it by themselves once its lease runs out.

const leaseMs = 1000;
const keelWeb = join(import.meta.dirname, '..', '..', 'server', 'bin', 'keel-web.js');
const prompts = Array.from({ length: 6 }, (_, index) => `task number ${index}`);

describe.skipIf(!pgUrl)('a worker fleet on PostgreSQL', () => {
  test('2 workers, 6 runs, one worker killed mid-run: every run succeeds with no manual call', async () => {
    const schema = randomSchema();
    const held = Promise.withResolvers<void>();
    // The first run's first turn is held until its worker is dead; its second try answers at once.
    const script: ScriptedReply[] = [
      { when: { lastMessageIncludes: prompts[0] }, until: held.promise, text: 'never heard' },
      ...prompts.map((prompt, index) => ({ when: { lastMessageIncludes: prompt }, text: `done ${index}` })),
    ];
    await using model = await startMockModel({ script });
    const home = await mkdtemp(join(tmpdir(), 'keel-fleet-'));
    const workdir = await mkdtemp(join(tmpdir(), 'keel-fleet-work-'));
    const config = { store: { kind: 'postgres', url: pgUrl!, schema }, runs: { lease_ms: leaseMs } };
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
      const runs: Run[] = [];
      for (const prompt of prompts) runs.push(await runtime.start({ prompt, workdir }, { execute: false }));
      const first = runs[0]!;

      // The worker that took the first run is mid-turn once the model holds its request: kill it there.
      const victim = await waitFor(() =>
        workers.find((worker) => taken(worker.output.stdout).includes(first.id)),
      );
      await waitFor(() => model.chatRequests.some((body) => JSON.stringify(body).includes(prompts[0]!)));
      const deadOwner = (await store.getRun(first.id)).lease_owner;
      victim.child.kill('SIGKILL');
      await victim.done;
      held.resolve();

      await waitFor(async () => {
        const now = await Promise.all(runs.map((run) => store.getRun(run.id)));
        return now.every((run) => run.status === 'succeeded');
      }, 30_000);

      for (const run of runs) {
        const records = await store.listEvents(run.id);
        expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
        expect(new Set(records.map((record) => record.id)).size).toBe(records.length);
        expect(records.filter((record) => record.type === 'done')).toHaveLength(1);
        expect(records.at(-1)?.type).toBe('done');
      }
      const recovered = (await store.listEvents(first.id)).filter(
        (record) => record.type === 'run_recovered',
      );
      expect(recovered.map((record) => record.event)).toEqual([
        expect.objectContaining({ lost_owner: deadOwner, recovery: 1 }),
      ]);
      const { entries } = await store.listAudit({ event: 'run_control', run_id: first.id });
      expect(entries.map((entry) => entry.args_summary)).toEqual([
        `recover (automatic 1/3, lease of ${deadOwner} expired)`,
      ]);
      // The survivor recovered it, and took every run the victim did not finish.
      const survivor = workers.find((worker) => worker !== victim)!;
      expect(survivor.output.stderr).toContain(`Recovered ${first.id}`);
      // Who ran what: the dead worker's step, abandoned, then the survivor's, which the recovery names.
      const survivorId = workerIdOf(survivor.output.stdout);
      expect(recovered[0]!.event.recovered_by).toBe(survivorId);
      const steps = await store.listSteps(first.id);
      expect(steps[0]).toMatchObject({ worker_id: deadOwner, status: 'abandoned' });
      expect(steps.slice(1).length).toBeGreaterThan(0);
      expect(steps.slice(1).every((step) => step.worker_id === survivorId)).toBe(true);
      const shown = await keel(['runs', 'show', first.id, '-w', workdir], env);
      expect(shown.stdout).toMatch(
        new RegExp(`^Ran by +${deadOwner} +step ${steps[0]!.id}\n +${survivorId} +steps? stp_`, 'm'),
      );
    } finally {
      for (const worker of workers) worker.child.kill('SIGKILL');
      await Promise.all(workers.map((worker) => worker.done));
      await runtime.close();
      await store.close();
      await dropSchema(pgUrl!, schema);
      await rm(home, { recursive: true, force: true });
      await rm(workdir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.skipIf(!pgUrl)('keel-web killed while it executes runs', () => {
  test('a worker started afterwards recovers and finishes every run keel-web held', async () => {
    const schema = randomSchema();
    const held = Promise.withResolvers<void>();
    const jobs = ['web job a', 'web job b'];
    const script: ScriptedReply[] = jobs.flatMap((job) => [
      { when: { lastMessageIncludes: job }, until: held.promise, text: 'never heard' },
      { when: { lastMessageIncludes: job }, text: `finished ${job}` },
    ]);
    await using model = await startMockModel({ script });
    const home = await mkdtemp(join(tmpdir(), 'keel-fleet-web-'));
    const config = { store: { kind: 'postgres', url: pgUrl!, schema }, runs: { lease_ms: leaseMs } };
    await writeFile(join(home, 'config.json'), JSON.stringify(config));
    const env = { RUNTIME_HOME: home, RUNTIME_MODEL: 'mock-model', RUNTIME_MODEL_BASE_URL: model.url };
    const web = spawn(process.execPath, [keelWeb, 'run', '--port', '0', '-w', home], {
      env: { ...process.env, ...env },
    });
    let webOut = '';
    web.stdout.on('data', (chunk) => (webOut += chunk));
    const webDone = new Promise((resolve) => web.on('close', resolve));
    const store = await createPostgresStore({ url: pgUrl!, schema });
    let worker: ReturnType<typeof startKeel> | undefined;
    try {
      const url = await waitFor(() => webOut.match(/listening on (http:\/\/\S+)/)?.[1]);
      const ids: string[] = [];
      for (const prompt of jobs) {
        const response = await fetch(`${url}/runtime/runs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ prompt, workdir: home }),
        });
        ids.push(((await response.json()) as { id: string }).id);
      }
      // keel-web is mid-turn on both once the model holds both requests.
      await waitFor(() =>
        jobs.every((job) => model.chatRequests.some((body) => JSON.stringify(body).includes(job))),
      );
      const owners = await Promise.all(ids.map(async (id) => (await store.getRun(id)).lease_owner));
      expect(owners.every((owner) => owner !== null)).toBe(true);
      expect(owners.every((owner) => owner?.startsWith('web:'))).toBe(true);
      web.kill('SIGKILL');
      await webDone;
      held.resolve();

      worker = startKeel(['worker', '--json', '--idle-ms', '50', '-w', home], env);
      await waitFor(async () => {
        const now = await Promise.all(ids.map((id) => store.getRun(id)));
        return now.every((run) => run.status === 'succeeded');
      }, 30_000);
      for (const [index, id] of ids.entries()) {
        const records = await store.listEvents(id);
        expect(records.map((record) => record.seq)).toEqual(records.map((_, at) => at + 1));
        expect(records.at(-1)?.type).toBe('done');
        expect(
          records.filter((record) => record.type === 'run_recovered').map((record) => record.event),
        ).toEqual([expect.objectContaining({ lost_owner: owners[index], recovery: 1 })]);
        // keel-web's executor is on record for the step it left, as a worker is.
        expect((await store.listSteps(id))[0]).toMatchObject({
          worker_id: owners[index],
          status: 'abandoned',
        });
      }
    } finally {
      worker?.child.kill('SIGKILL');
      await worker?.done;
      web.kill('SIGKILL');
      await store.close();
      await dropSchema(pgUrl!, schema);
      await rm(home, { recursive: true, force: true });
    }
  }, 60_000);
});

/** A `keel worker --json`'s id, from its `started` line. */
function workerIdOf(stdout: string): string | undefined {
  return jsonLines<{ type: string; worker_id?: string }>(stdout.slice(0, stdout.lastIndexOf('\n') + 1)).find(
    (line) => line.type === 'started',
  )?.worker_id;
}

/** The run ids a `keel worker --json` has taken so far. */
function taken(stdout: string): string[] {
  const complete = stdout.slice(0, stdout.lastIndexOf('\n') + 1);
  return jsonLines<{ type: string; run_id: string }>(complete)
    .filter((line) => line.type === 'taken')
    .map((line) => line.run_id);
}
