import { describe, expect, test } from 'vitest';
import { rawRequest } from '../../../runtime/test/errors/raw-request.ts';
import { startWorkbench } from '../harness.ts';

describe('requests refused before any handler still get the error shape', () => {
  test('headers too large (431), a broken request (400), a long path parameter (400, not 414)', async () => {
    await using wb = await startWorkbench([]);
    const big = await rawRequest(
      wb.base,
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
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
    const garbage = await rawRequest(wb.base, 'GARBAGE\r\n\r\n');
    expect(garbage.status).toBe(400);
    expect(garbage.body).toMatchObject({ error: { code: 'INVALID_PARAMS' } });

    const long = await wb.api('GET', `/api/tasks/${'a'.repeat(300)}`);
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('INVALID_PARAMS');
    expect((await wb.api('GET', '/api/health')).status).toBe(200);
  });
});
