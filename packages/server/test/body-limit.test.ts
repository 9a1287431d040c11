// keel-web's wiring of the shared body limit (@keel/service test/body-limit.test.ts has the cases): a body
// over its 1 MiB is 413 PAYLOAD_TOO_LARGE in the error shape, and real clients read that answer.

import { refusedBodyBound } from '@keel/service';
import { describe, expect, test } from 'vitest';
import {
  clients,
  flood,
  framings,
  sendOversized,
  tooLarge,
  watchConnections,
} from '../../service/test/oversized-body.ts';
import { startServer } from './harness.ts';

const limit = 1024 * 1024;

describe('keel-web: a body over its 1 MiB limit', () => {
  for (const client of clients) {
    for (const framing of framings) {
      test(`${client}, ${framing}: every one of 50 requests reads its 413`, async () => {
        await using s = await startServer([]);
        const url = `${s.base}/runtime/runs`;
        const outcomes = await sendOversized({ url, client, framing, size: 2 * limit, times: 50 });
        expect(outcomes).toEqual(outcomes.map(() => tooLarge(limit)));
        expect((await s.api('GET', '/health')).status).toBe(200);
      });
    }
  }

  test('the web project endpoints (their own error handler) answer it the same', async () => {
    await using s = await startServer([]);
    const url = `${s.base}/api/projects`;
    expect(
      await sendOversized({ url, client: 'fetch', framing: 'chunked', size: 2 * limit, times: 5 }),
    ).toEqual(Array(5).fill(tooLarge(limit)));
  });

  test('a body far past the bound is cut off', async () => {
    await using s = await startServer([]);
    const connections = watchConnections(s.app.server);
    const poured = await flood(`${s.base}/runtime/runs`, 'chunked', 1024 ** 3);
    expect(poured.written).toBeLessThan(1024 ** 3);
    expect(await connections.mostRead()).toBeLessThan(refusedBodyBound(limit) + 1024 ** 2);
  });
});
