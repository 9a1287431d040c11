// The workbench's wiring of the shared body limit (@keel/service test/body-limit.test.ts has the cases): a
// body over its limit is 413 PAYLOAD_TOO_LARGE in the error shape, and real clients read that answer.

import { refusedBodyBound } from '@keel/service';
import { describe, expect, test } from 'vitest';
import {
  clients,
  flood,
  framings,
  sendOversized,
  tooLarge,
  watchConnections,
} from '../../../service/test/oversized-body.ts';
import { startWorkbench } from '../harness.ts';

// Smaller than the default 40 MiB, so 200 bodies of twice the limit stay quick; the default is below.
const limit = 1024 * 1024;

describe('the workbench: a body over its limit', () => {
  for (const client of clients) {
    for (const framing of framings) {
      test(`${client}, ${framing}: every one of 50 requests reads its 413`, async () => {
        await using wb = await startWorkbench([], { configure: false, workbench: { bodyLimit: limit } });
        const url = `${wb.base}/api/projects`;
        const outcomes = await sendOversized({ url, client, framing, size: 2 * limit, times: 50 });
        expect(outcomes).toEqual(outcomes.map(() => tooLarge(limit)));
        expect((await wb.api('GET', '/api/health')).status).toBe(200);
      });
    }
  }

  test('the default limit, 40 MiB: twice that is answered too', async () => {
    await using wb = await startWorkbench([], { configure: false });
    const defaultLimit = 40 * 1024 * 1024;
    const url = `${wb.base}/api/projects`;
    for (const client of clients) {
      expect(
        await sendOversized({ url, client, framing: 'content-length', size: 2 * defaultLimit, times: 1 }),
      ).toEqual([tooLarge(defaultLimit)]);
    }
  });

  test('a body far past the bound is cut off', async () => {
    await using wb = await startWorkbench([], { configure: false, workbench: { bodyLimit: limit } });
    const connections = watchConnections(wb.workbench.app.server);
    const poured = await flood(`${wb.base}/api/projects`, 'chunked', 1024 ** 3);
    expect(poured.written).toBeLessThan(1024 ** 3);
    expect(await connections.mostRead()).toBeLessThan(refusedBodyBound(limit) + 1024 ** 2);
  });
});
