import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { waitForFileCommand } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { createKeelWebClient, type RunEventEntry } from '../src/index.ts';
import { gate, patience, startWorld } from './world.ts';

describe('runs.follow across a dropped connection', () => {
  test('a connection cut mid-run resumes from the last seq: no event lost, none repeated', async () => {
    await using world = await startWorld([
      // Held inside this command until the test creates `go`: most of the run happens after the cut.
      { toolCalls: [{ name: 'exec_command', arguments: { command: waitForFileCommand('go') } }] },
      { when: { lastRole: 'tool' }, text: 'tick '.repeat(80), chunkDelayMs: 2 },
    ]);
    const started = await world.client.runs.start({ prompt: 'count', workdir: world.repo.path });

    // The follower's requests: each event stream's `after` is recorded; while `refusing`, every request
    // fails as it would with the server unreachable.
    const streams: number[] = [];
    let refusing = false;
    let refused = 0;
    const firstRefusal = gate();
    const follower = createKeelWebClient({
      baseUrl: world.base,
      reconnect: { initialDelayMs: 5, maxDelayMs: 50, maxAttempts: 100_000 },
      fetch: async (url, init) => {
        if (refusing) {
          refused += 1;
          firstRefusal.open();
          throw new TypeError('fetch failed');
        }
        const { pathname, searchParams } = new URL(url);
        if (pathname.endsWith('/events')) streams.push(Number(searchParams.get('after')));
        return fetch(url, init);
      },
    });

    const heard: RunEventEntry[] = [];
    const toolCall = gate();
    // Each stream opened and each connection lost, in order (a page shows "reconnecting" in between).
    const connection: string[] = [];
    const following = follower.runs.follow(started.id, {
      signal: patience(),
      onOpen: () => connection.push('open'),
      onDrop: () => connection.push('drop'),
      onEvent: (entry) => {
        heard.push(entry);
        if (entry.event.type === 'tool_call') toolCall.open();
      },
    });

    // The run waits in its command: cut every connection from the server's side, keep the follower away,
    // and let the rest of the run happen meanwhile.
    await toolCall.promise;
    refusing = true;
    world.app.server.closeAllConnections();
    await firstRefusal.promise;
    const beforeCut = heard.length;
    expect(beforeCut).toBeGreaterThan(0);
    await writeFile(join(world.repo.path, 'go'), '');
    const finished = await world.until(started.id, (run) => run.status === 'succeeded');
    expect(heard).toHaveLength(beforeCut);

    // Back: the follower asks for what came after its cursor and hears the end of the run.
    refusing = false;
    const ended = await following;
    expect(ended).toMatchObject({ status: 'succeeded', last_seq: finished.last_seq });
    expect(refused).toBeGreaterThan(0);
    expect(connection.join(' ')).toMatch(/^open( drop)+ open$/);
    // Every refused request was a lost connection (the stream cut by the server may be one more).
    expect(connection.filter((each) => each === 'drop').length).toBeGreaterThanOrEqual(refused);
    expect(streams).toEqual([0, heard[beforeCut - 1]!.seq]);
    expect(heard.map((entry) => entry.seq)).toEqual(heard.map((_, index) => index + 1));
    expect(heard).toEqual(await world.client.runs.events(started.id));
    expect(heard.at(-1)?.event).toMatchObject({ type: 'done', output: 'tick '.repeat(80) });
    // Most of the run was logged while the follower was away, and reached it after the reconnection.
    expect(
      heard.slice(beforeCut).filter((entry) => entry.event.type === 'text_delta').length,
    ).toBeGreaterThan(10);
  });
});
