import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { jsonLines, startKeel, waitFor } from '../../cli/test/keel-process.ts';
import { dropSchema, pgUrl, randomSchema } from './pg-test-store.ts';

// `keel-web run --queue-only` in front of a `keel worker`, both real processes on one PostgreSQL schema:
// every run started over HTTP is executed by the worker, none by keel-web.

const keelWeb = join(import.meta.dirname, '..', '..', 'server', 'bin', 'keel-web.js');

describe.skipIf(!pgUrl)('keel-web --queue-only', () => {
  test('runs POSTed to a queue-only keel-web are all executed by the worker', async () => {
    const schema = randomSchema();
    await using model = await startMockModel({
      script: [0, 1, 2].map((index) => ({
        when: { lastMessageIncludes: `job ${index}` },
        text: `did ${index}`,
      })),
    });
    const home = await mkdtemp(join(tmpdir(), 'keel-queue-only-'));
    await writeFile(
      join(home, 'config.json'),
      JSON.stringify({ store: { kind: 'postgres', url: pgUrl!, schema } }),
    );
    const env = { RUNTIME_HOME: home, RUNTIME_MODEL: 'mock-model', RUNTIME_MODEL_BASE_URL: model.url };
    const web = spawn(process.execPath, [keelWeb, 'run', '--port', '0', '--queue-only', '-w', home], {
      env: { ...process.env, ...env },
    });
    let webOut = '';
    web.stdout.on('data', (chunk) => (webOut += chunk));
    web.stderr.on('data', (chunk) => (webOut += chunk));
    const webDone = new Promise((resolve) => web.on('close', resolve));
    let worker: ReturnType<typeof startKeel> | undefined;
    try {
      const url = await waitFor(() => webOut.match(/listening on (http:\/\/\S+)/)?.[1]);
      await waitFor(() => webOut.includes('Queue only: runs wait for a `keel worker`'));
      const ids: string[] = [];
      for (const index of [0, 1, 2]) {
        const response = await fetch(`${url}/runtime/runs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ prompt: `job ${index}`, workdir: home }),
        });
        expect(response.status).toBe(202);
        ids.push(((await response.json()) as { id: string }).id);
      }
      worker = startKeel(['worker', '--json', '--idle-ms', '50', '-w', home], env);
      const stopped = await waitFor(() => {
        const lines = jsonLines<{ type: string; run_id: string; status: string }>(
          worker!.output.stdout.slice(0, worker!.output.stdout.lastIndexOf('\n') + 1),
        ).filter((line) => line.type === 'stopped');
        return lines.length === ids.length ? lines : undefined;
      }, 30_000);
      expect(stopped.map((line) => [line.run_id, line.status]).sort()).toEqual(
        ids.map((id) => [id, 'succeeded']).sort(),
      );
      const detail = await fetch(`${url}/runtime/runs/${ids[0]}`).then((response) => response.json());
      expect(detail).toMatchObject({ status: 'succeeded', result: expect.anything() });
      // Over HTTP too, each step names the worker that ran it.
      const started = jsonLines<{ type: string; worker_id?: string }>(worker.output.stdout).find(
        (line) => line.type === 'started',
      );
      const steps = (detail as { steps: { worker_id: string | null }[] }).steps;
      expect(steps.length).toBeGreaterThan(0);
      expect(steps.every((step) => step.worker_id === started?.worker_id)).toBe(true);
    } finally {
      worker?.child.kill('SIGKILL');
      await worker?.done;
      web.kill('SIGTERM');
      await webDone;
      await dropSchema(pgUrl!, schema);
      await rm(home, { recursive: true, force: true });
    }
  }, 60_000);
});
