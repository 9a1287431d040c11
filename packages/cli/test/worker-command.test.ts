import { createServer } from 'node:net';
import { createRuntime, type Step } from '@keel/runtime';
import { describe, expect, test } from 'vitest';
import { jsonLines, keel, keelJson, startKeel, waitFor } from './keel-process.ts';
import { scenario } from './scenario.ts';

interface Line {
  type: string;
  worker_id?: string;
  health?: string | null;
  run_id?: string;
  status?: string;
}

/** The complete JSON lines a `keel worker --json` printed so far. */
function linesOf(stdout: string): Line[] {
  return jsonLines<Line>(stdout.slice(0, stdout.lastIndexOf('\n') + 1));
}

describe('keel worker for a supervisor', () => {
  test('--json says started and ready, /health answers 200, and the steps it ran name it in keel runs show', async () => {
    await using s = await scenario([{ text: 'Done by the worker.' }]);
    const worker = startKeel(
      ['worker', '--json', '--idle-ms', '50', '--health-port', '0', '-w', s.repo.path],
      s.env,
    );
    try {
      const ready = await waitFor(() => linesOf(worker.output.stdout).find((line) => line.type === 'ready'));
      const [started] = linesOf(worker.output.stdout);
      expect(started).toEqual({
        type: 'started',
        worker_id: expect.stringMatching(/^[^:]+:\d+:[0-9a-f]{8}$/),
        health: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/health$/),
      });
      expect(ready).toEqual({ type: 'ready', worker_id: started!.worker_id });
      expect(worker.output.stderr).toContain(`Health: ${started!.health}`);
      const health = await fetch(started!.health!);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({
        status: 'ok',
        worker_id: started!.worker_id,
        store: 'reachable',
        running: 0,
      });
      const elsewhere = await fetch(started!.health!.replace('/health', '/'));
      expect(elsewhere.status).toBe(404);
      await elsewhere.body?.cancel();

      const runtime = createRuntime({
        runtimeDir: s.home,
        workdir: s.repo.path,
        model: 'mock-model',
        modelBaseUrl: s.model.url,
      });
      const run = await runtime.start({ prompt: 'do it', workdir: s.repo.path }, { execute: false });
      await runtime.close();
      await waitFor(() => linesOf(worker.output.stdout).some((line) => line.type === 'stopped'));
      // Existing lines keep their shape; the worker's own lines come first.
      expect(linesOf(worker.output.stdout)).toEqual([
        started,
        ready,
        { type: 'taken', run_id: run.id, attempt: 1 },
        { type: 'stopped', run_id: run.id, status: 'succeeded' },
      ]);

      const shown = await keelJson<{ steps: Step[] }>(['runs', 'show', run.id, '-w', s.repo.path], s.env);
      expect(shown.steps.length).toBeGreaterThan(0);
      expect(shown.steps.every((step) => step.worker_id === started!.worker_id)).toBe(true);
      const text = await keel(['runs', 'show', run.id, '-w', s.repo.path], s.env);
      const count = shown.steps.length;
      expect(text.stdout).toContain(
        `\nRan by     ${started!.worker_id} (${count === 1 ? 'its one step' : `all ${count} steps`})\n`,
      );
    } finally {
      worker.child.kill('SIGTERM');
    }
    expect((await worker.done).code).toBe(0);
  }, 60_000);

  test('a health port that is taken is a clear error, before any run is taken', async () => {
    await using s = await scenario([]);
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const outcome = await keel(['worker', '--health-port', String(port), '-w', s.repo.path], s.env);
      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toContain(
        `Error [INVALID_PARAMS]: Cannot serve the worker's health on 127.0.0.1:${port}: the port is in use.`,
      );
      const bad = await keel(['worker', '--health-port', '70000'], s.env);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('must be a port number, 0 to 65535');
    } finally {
      taken.close();
    }
  }, 30_000);
});
