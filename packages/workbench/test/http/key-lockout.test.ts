// Wrong API keys cannot lock out the owner (issue #36, item 7), over real sockets: every local process
// shares 127.0.0.1, so a flood of wrong keys from any of them must not make the right key fail. The
// flood itself is still refused with 429 and audited no more than before.
import * as hostile from '@keel/testkit/fuzz';
import { describe, expect, test } from 'vitest';
import { startWorkbench } from '../harness.ts';

const key = 'the-owners-key-4f1c2a9e7b3d5068';

describe('the wrong-key limit of the workbench', () => {
  test('100 wrong keys, then the right key gets 200 (HTTP and WebSocket); wrong ones past 10 get 429', async () => {
    await using wb = await startWorkbench([], { configure: false, env: { WORKBENCH_AUTH_API_KEY: key } });
    const port = hostile.portOf(wb.base);
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      const answer = await hostile.rawRequest(port, {
        method: 'GET',
        path: '/api/projects',
        headers: { authorization: `Bearer guess-${i}` },
      });
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect(hostile.errorOf(answer)?.code).toBe('RATE_LIMITED');
        expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
        expect(hostile.errorOf(answer)?.message).toContain('the right key still works');
      }
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(90).fill(429));

    const owner = await hostile.rawRequest(port, {
      method: 'GET',
      path: '/api/projects',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(owner.status, owner.body).toBe(200);
    const socket = await hostile.trySocket(`${wb.base.replace('http', 'ws')}/api/ws?token=${key}`, {});
    expect(socket.kind).toBe('open');
    if (socket.kind === 'open') socket.socket.close();
    // The flood goes on being refused after the owner got in, and a missing key is still 401.
    const next = await hostile.rawRequest(port, {
      method: 'GET',
      path: '/api/projects',
      headers: { authorization: 'Bearer guess-101' },
    });
    expect(next.status).toBe(429);
    expect((await hostile.rawRequest(port, { method: 'GET', path: '/api/projects' })).status).toBe(401);
  });
});
