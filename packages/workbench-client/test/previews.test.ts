// Issue #37 through the client, against the real service (the bubblewrap sandbox, a real HTTP server): a
// task's preview started, followed both ways a program can (`tasks.watch` on a connection of its own, an
// app's one socket with `subscribeTask`), read (list, log), refused where the service refuses, and stopped.
import type { Preview } from '@keel/protocol/workbench';
import { describe, expect, test } from 'vitest';
import { eventually, knowledgeScript, startWorkbench, tempDir } from '../../workbench/test/harness.ts';
import { hasBwrap, serverRepository } from '../../workbench/test/previews/preview-fixture.ts';
import { createWorkbenchClient, type PreviewOutput, WorkbenchApiError } from '../src/index.ts';
import { gate, patience, projectReady } from './world.ts';

/** What one follower of the task's channel heard. */
function follower() {
  const previews: Preview[] = [];
  const output: PreviewOutput[] = [];
  return {
    previews,
    output,
    onPreview: (preview: Preview) => previews.push(preview),
    onPreviewLog: (chunk: PreviewOutput) => output.push(chunk),
    heardState: (state: Preview['state']) => previews.some((preview) => preview.state === state),
    text: () => output.map((chunk) => chunk.text).join(''),
  };
}

/** The refusal a call ended with (fails the test when it succeeded). */
async function refusal(call: Promise<unknown>): Promise<WorkbenchApiError> {
  const error = await call.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (!(error instanceof WorkbenchApiError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe.skipIf(!hasBwrap)('previews through the client', () => {
  test('started, heard live by tasks.watch and the socket, read, refused twice, stopped', {
    timeout: 120_000,
  }, async () => {
    const repo = serverRepository(tempDir('client-preview'));
    await using wb = await startWorkbench(knowledgeScript(1), {
      workbench: { previewTimings: { graceMs: 1000, probeMs: 50 } },
    });
    const client = createWorkbenchClient({ baseUrl: wb.base });
    const project = await client.projects.create({
      name: 'App',
      repositories: [{ path: repo.dir, type: 'frontend' }],
    });
    await projectReady(client, project.id);
    const task = await client.tasks.create({ project_id: project.id, description: 'Look at it' });
    await client.tasks.waitFor(task.id, (view) => view.init.status === 'done', { signal: patience() });

    // Both followers are subscribed before anything starts: the channel replays nothing.
    const watched = follower();
    const watching = gate();
    const stopWatching = new AbortController();
    const watch = client.tasks.watch(task.id, {
      onTask: () => watching.open(),
      onPreview: watched.onPreview,
      onPreviewLog: watched.onPreviewLog,
      signal: stopWatching.signal,
    });
    const socket = client.socket();
    const socketHeard = follower();
    const subscribed = gate();
    const unsubscribe = socket.subscribeTask(task.id, {
      onSubscribed: subscribed.open,
      onPreview: socketHeard.onPreview,
      onPreviewLog: socketHeard.onPreviewLog,
    });
    await Promise.all([watching.promise, subscribed.promise]);

    const started = await client.tasks.startPreview(task.id, 'app');
    expect(started).toMatchObject({ repository: 'app', command: 'npm run dev', state: 'starting' });
    expect(started.url).toBe(`http://127.0.0.1:${started.port}`);
    const again = await refusal(client.tasks.startPreview(task.id, 'app'));
    expect([again.status, again.code]).toEqual([409, 'PREVIEW_RUNNING']);

    await eventually(
      () => watched.heardState('running') && socketHeard.heardState('running'),
      'both followers to hear the preview running',
      30_000,
    );
    expect(await (await fetch(started.url)).text()).toBe('hello from the preview');
    await eventually(
      () => watched.text().includes('GET /') && socketHeard.text().includes('GET /'),
      'both followers to hear the request logged',
    );
    const listening = `listening on 127.0.0.1:${started.port}`;
    for (const heard of [watched, socketHeard]) {
      expect(heard.text()).toContain(listening);
      // Every chunk once, in order, from the first.
      expect(heard.output.map((chunk) => chunk.seq)).toEqual(heard.output.map((_, index) => index + 1));
      expect(heard.previews.map((preview) => preview.state)).toEqual(['starting', 'running']);
    }
    const log = await client.tasks.previewLog(task.id, 'app');
    expect(log).toMatchObject({ repository: 'app', truncated: false });
    expect(log.log).toContain(listening);
    expect(log.seq).toBeGreaterThanOrEqual(watched.output.length);
    expect(await client.tasks.previews(task.id)).toMatchObject([
      { repository: 'app', state: 'running', url: started.url },
    ]);

    const stopped = await client.tasks.stopPreview(task.id, 'app');
    expect(stopped).toMatchObject({ repository: 'app', state: 'stopped', pid: null });
    await eventually(
      () => watched.heardState('stopped') && socketHeard.heardState('stopped'),
      'both followers to hear the preview stopped',
    );
    await expect(fetch(started.url)).rejects.toThrow();
    const missing = await refusal(client.tasks.previewLog(task.id, 'nope'));
    expect([missing.status, missing.code]).toEqual([404, 'PREVIEW_NOT_FOUND']);

    unsubscribe();
    socket.close();
    stopWatching.abort();
    await watch;
  });
});
