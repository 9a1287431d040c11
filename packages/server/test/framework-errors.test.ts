import { describe, expect, test } from 'vitest';
import { rawRequest } from '../../runtime/test/errors/raw-request.ts';
import { startServer } from './harness.ts';

describe('requests refused before any handler still get the error shape', () => {
  test('headers too large (431), a broken request (400), a long path parameter (404, not 414)', async () => {
    await using s = await startServer([]);
    const big = await rawRequest(
      s.base,
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(big).toEqual({
      status: 431,
      body: {
        error: {
          code: 'INVALID_PARAMS',
          message: 'The request headers are too large.',
          details: { reason: 'HPE_HEADER_OVERFLOW' },
        },
      },
    });
    const garbage = await rawRequest(s.base, 'GARBAGE\r\n\r\n');
    expect(garbage.status).toBe(400);
    expect(garbage.body).toMatchObject({ error: { code: 'INVALID_PARAMS' } });

    const long = await s.api('GET', `/runtime/runs/${'a'.repeat(300)}`);
    expect(long.status).toBe(404);
    expect(long.body.error.code).toBe('RUN_NOT_FOUND');
    // The server still answers afterwards.
    expect((await s.api('GET', '/health')).status).toBe(200);
  });
});
