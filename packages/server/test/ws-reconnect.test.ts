import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRuntime } from '@keel/runtime';
import { eventually, waitForFileCommand } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

type Message = { type: string; [key: string]: unknown };

async function connect(base: string, query = '') {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/ws${query}`);
  const messages: Message[] = [];
  socket.addEventListener('message', (event) => messages.push(JSON.parse(String(event.data))));
  await new Promise<void>((resolve) => socket.addEventListener('open', () => resolve(), { once: true }));
  return {
    socket,
    send: (message: unknown) => socket.send(JSON.stringify(message)),
    next: (match: (message: Message) => boolean) =>
      eventually(() => messages.find(match), {
        timeoutMs: 10_000,
        intervalMs: 20,
        what: () => `a matching message; got ${JSON.stringify(messages)}`,
      }),
  };
}

describe('WS /ws reconnect', () => {
  test('finds the session’s run in progress however many runs came after it', async () => {
    await using s = await startServer([
      { toolCalls: [{ name: 'exec_command', arguments: { command: waitForFileCommand('go') } }] },
      { when: { lastRole: 'tool' }, text: 'Finished at last.' },
    ]);
    const first = await connect(s.base);
    first.send({ type: 'run', data: { prompt: 'wait for go' } });
    const start = await first.next((m) => m.type === 'start');
    await first.next((m) => m.type === 'tool_call');
    first.socket.close();

    // Far more runs than one page of the run list, all newer than the one in progress: finished ones,
    // and more queued (in progress, other sessions) than one page of a status holds.
    const other = createRuntime({ env: s.env, workdir: s.repo.path });
    try {
      const store = await other.store();
      for (let index = 0; index < 250; index++) {
        await store.createRun({
          session_id: null,
          workdir: s.repo.path,
          prompt: `later ${index}`,
          workflow: null,
          input: {},
          status: index < 100 ? 'succeeded' : 'queued',
        });
      }
      expect(await other.runs.list({ status: 'queued', limit: 200 })).toHaveLength(150);
    } finally {
      await other.close();
    }

    const again = await connect(s.base, `?session_id=${start.session_id}`);
    expect(await again.next((m) => m.type === 'resuming')).toMatchObject({ run_id: start.run_id });
    await writeFile(join(s.repo.path, 'go'), '');
    expect(await again.next((m) => m.type === 'done')).toMatchObject({ output: 'Finished at last.' });
    again.socket.close();
  });
});
