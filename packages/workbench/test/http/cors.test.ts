import { describe, expect, test } from 'vitest';
import { startWorkbench } from '../harness.ts';

describe('CORS', () => {
  test('allows the configured origins only (default: ports 3000 and 8000 of the local host)', async () => {
    await using wb = await startWorkbench([], { configure: false });
    const preflight = (origin: string) =>
      fetch(`${wb.base}/api/settings`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'PUT' },
      });
    expect((await preflight('http://localhost:3000')).headers.get('access-control-allow-origin')).toBe(
      'http://localhost:3000',
    );
    expect((await preflight('http://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });

  test('WORKBENCH_CORS_ORIGINS replaces the list', async () => {
    await using wb = await startWorkbench([], {
      configure: false,
      env: { WORKBENCH_CORS_ORIGINS: 'http://app.local:5173' },
    });
    const response = await fetch(`${wb.base}/api/settings`, { headers: { origin: 'http://app.local:5173' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('http://app.local:5173');
    const other = await fetch(`${wb.base}/api/settings`, { headers: { origin: 'http://localhost:3000' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
