import { describe, expect, test } from 'vitest';
import { startWorkbench } from '../harness.ts';

// Requests refused before any handler (headers too large, not HTTP, `/%ff`) are @keel/service's
// (its test/framework-errors.test.ts); here, what the workbench's own routes make of a long path parameter.
describe('a long path parameter reaches its handler', () => {
  test('400 INVALID_PARAMS naming the id, not 414', async () => {
    await using wb = await startWorkbench([]);
    const long = await wb.api('GET', `/api/tasks/${'a'.repeat(300)}`);
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('INVALID_PARAMS');
    expect((await wb.api('GET', '/api/health')).status).toBe(200);
  });
});
