import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

// Requests refused before any handler (headers too large, not HTTP, `/%ff`) are @keel/service's
// (its test/framework-errors.test.ts); here, what keel-web's own routes make of a long path parameter.
describe('a long path parameter reaches its handler', () => {
  test('404 RUN_NOT_FOUND, not 414', async () => {
    await using s = await startServer([]);
    const long = await s.api('GET', `/runtime/runs/${'a'.repeat(300)}`);
    expect(long.status).toBe(404);
    expect(long.body.error.code).toBe('RUN_NOT_FOUND');
    expect((await s.api('GET', '/health')).status).toBe(200);
  });
});
