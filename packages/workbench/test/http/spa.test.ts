import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type Body, startWorkbench, tempDir } from '../harness.ts';

/** A stand-in for the built SPA: an index page and one asset. */
function builtSpa(): string {
  const dir = tempDir('spa');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Keel workbench</title><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log("app");');
  return dir;
}

describe('the browser app at /', () => {
  test('serves its files, index.html for its own routes, and leaves /api to the service', async () => {
    await using wb = await startWorkbench([], { workbench: { spaDir: builtSpa() } });
    const page = await fetch(`${wb.base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<div id="root">');
    const asset = await fetch(`${wb.base}/assets/app.js`);
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe('console.log("app");');
    // A reload on a client-side route opens the app there.
    const deep = await fetch(`${wb.base}/tasks/task_123`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain('<div id="root">');
    // Unknown API paths and missing files keep the service's 404 in the error shape.
    for (const path of ['/api/nothing-here', '/assets/missing.js']) {
      const missing = await fetch(`${wb.base}${path}`);
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as Body).error.code).toBe('NOT_FOUND');
    }
  });

  test('with an API key the page loads without it, the API still needs it', async () => {
    await using wb = await startWorkbench([], {
      configure: false,
      env: { WORKBENCH_AUTH_API_KEY: 'secret-key-123' },
      workbench: { spaDir: builtSpa() },
    });
    expect((await fetch(`${wb.base}/`)).status).toBe(200);
    expect((await fetch(`${wb.base}/projects`)).status).toBe(200);
    const api = await fetch(`${wb.base}/api/settings`);
    expect(api.status).toBe(401);
    expect(((await api.json()) as Body).error.code).toBe('AUTHENTICATION_FAILED');
  });

  test('without a built app, / says how to build it and the API works', async () => {
    await using wb = await startWorkbench([], { workbench: { spaDir: join(tempDir('empty'), 'none') } });
    const page = await fetch(`${wb.base}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('npm run build');
    expect((await fetch(`${wb.base}/api/settings`)).status).toBe(200);
  });
});
