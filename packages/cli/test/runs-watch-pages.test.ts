// `keel runs watch` replays a long run a page at a time: every event once, in order, from any cursor,
// with `--json` lines written as stored (seq spliced in) and approval requests still explained.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteRunStore } from '@keel/runtime';
import { describe, expect, test } from 'vitest';
import { jsonLines, keel } from './keel-process.ts';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('keel runs watch, a page at a time', () => {
  test('replays a run longer than a page exactly once, from any cursor, text and JSON', async () => {
    const home = await mkdtemp(join(tmpdir(), 'keel-watch-pages-'));
    const env = { RUNTIME_HOME: home };
    try {
      const store = openSqliteRunStore(join(home, 'keel.db'));
      const run = await store.createRun({
        session_id: 'ses_w',
        workdir: home,
        prompt: 'p',
        workflow: null,
        input: {},
      });
      await store.appendEvent(run.id, { type: 'session_start', session_id: 'ses_w' });
      await Promise.all(
        range(2, 2500).map((i) =>
          store.appendEvent(run.id, { type: 'text_delta', content: `${i} `, session_id: 'ses_w' }),
        ),
      );
      await store.appendEvent(run.id, {
        type: 'interaction_request',
        request_id: 'apr_missing',
        kind: 'approval',
        prompt: 'Allow write_file?',
        options: ['approve', 'reject'],
        session_id: 'ses_w',
      });
      await store.appendEvent(run.id, { type: 'text_delta', content: 'end', session_id: 'ses_w' });
      await store.transition(run.id, { from: ['queued'], to: 'succeeded', result: { output: 'end' } });
      await store.close();

      const replay = await keel(['runs', 'watch', run.id, '--json', '-w', home], env);
      expect(replay.code).toBe(0);
      const events = jsonLines<{ seq: number; type: string; content?: string }>(replay.stdout);
      expect(events.map((event) => event.seq)).toEqual(range(1, 2502));
      expect(events[1]).toEqual({ seq: 2, type: 'text_delta', content: '2 ', session_id: 'ses_w' });
      expect(events[2500]).toMatchObject({
        seq: 2501,
        type: 'interaction_request',
        request_id: 'apr_missing',
      });
      expect(replay.stderr).toContain('apr_missing');

      for (const after of [999, 1000, 2500]) {
        const tail = await keel(
          ['runs', 'watch', run.id, '--json', '--after', String(after), '-w', home],
          env,
        );
        expect(jsonLines<{ seq: number }>(tail.stdout).map((event) => event.seq)).toEqual(
          range(after + 1, 2502),
        );
      }

      // Text as `keel run` prints it: the answer on stdout, broken where the approval request is explained.
      const text = await keel(['runs', 'watch', run.id, '-w', home], env);
      const expected = `${range(2, 2500)
        .map((i) => `${i} `)
        .join('')}\nend`;
      expect(text.stdout === expected).toBe(true);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }, 60_000);
});
