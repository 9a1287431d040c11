// Issue #44: the service starts the off-loop worker as it starts (`prewarmOffLoop`), so a project create's
// first scan does not wait for the thread to start and load its modules. The worker started early must be
// the one every call runs on, and an idle one must never keep the process alive.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { closeOffLoop, offLoopThreadId, prewarmOffLoop } from '../../src/off-loop/index.ts';
import { where } from './jobs.ts';

describe('prewarmOffLoop', () => {
  test('starts the worker before any call; the calls then run on it', async () => {
    await closeOffLoop();
    expect(offLoopThreadId()).toBeUndefined();
    prewarmOffLoop();
    const warmed = offLoopThreadId();
    expect(warmed).toBeDefined();
    expect(warmed).not.toBe(threadId);
    expect((await where(1)).threadId).toBe(warmed);
    // Again (a second workbench in the same process): the same worker.
    prewarmOffLoop();
    expect((await where(2)).threadId).toBe(warmed);
  });

  test('a prewarmed worker with nothing to do lets its process exit by itself', async () => {
    const child = spawn(
      process.execPath,
      ['--conditions=@keel/source', join(import.meta.dirname, 'prewarm-child.ts')],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    try {
      // A worker that kept the process alive would leave this waiting until the test's timeout.
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
      expect(Number(out.trim())).toBeGreaterThan(0);
    } finally {
      child.kill();
    }
  });
});
