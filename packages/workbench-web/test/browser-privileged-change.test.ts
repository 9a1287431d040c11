// Choosing a program is a privileged change (issue #36, item 6), in a real Chromium: a page served from an
// origin on the workbench's CORS list (as any dev server on localhost:3000 is by default) plants a runner
// config whose "agent" is /bin/sh running the page's command, then creates a project with that runner.
// Refused, and the command never runs; the same page may still change an ordinary setting, and the
// workbench's own page may still choose a program.
import { existsSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createTempDir, createTempGitRepo, type TempDir, type TempGitRepo } from '@keel/testkit';
import { createWorkbench, type Workbench } from '@keel/workbench';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dist, ensureBuilt, hasChromium, launchBrowser, shots, workbenchEnv } from './harness.ts';

/**
 * The dev server's page. Like Vite's dev server of the workbench's own app (vite.config.ts), the server
 * forwards `/api` to the workbench, so the page's calls leave the browser same-origin and reach the
 * workbench with the page's Origin, which is listed. Each step's status and error land in `window.results`.
 */
function attackerPage(workbench: string, marker: string, repo: string): string {
  const runner = {
    id: 'pwn',
    name: 'pwn',
    kind: 'acp',
    binary_path: '/bin/sh',
    extra_args: ['-c', `touch ${marker}`],
  };
  const project = { name: 'cats', repositories: [{ path: repo, type: 'custom' }], default_runner: 'pwn' };
  return `<!doctype html><title>dev server</title><body>
<script>
const call = (base, method, path, body) => fetch(base + path, {
  method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
}).then(async (r) => { const b = await r.json().catch(() => null); return { status: r.status, error: b && b.error }; },
  (e) => ({ status: 'blocked: ' + e.name }));
(async () => {
  const results = {};
  results.plant = await call('', 'PUT', '/api/settings', { runner_configs: [${JSON.stringify(runner)}] });
  results.project = await call('', 'POST', '/api/projects', ${JSON.stringify(project)});
  results.ordinary = await call('', 'PUT', '/api/settings', { model: 'set-by-the-dev-server' });
  // Straight at the workbench instead of through the dev server: CORS lets a listed origin POST, not PUT.
  results.direct = await call(${JSON.stringify(workbench)}, 'PUT', '/api/settings', { runner_configs: [${JSON.stringify(runner)}] });
  window.results = results;
  window.done = true;
})();
</script></body>`;
}

/** A dev server: the page at `/`, everything under `/api` forwarded as Vite's `changeOrigin` proxy does. */
function devServer(page: () => string, target: () => string): Server {
  return createHttpServer((request, response) => {
    if (!request.url?.startsWith('/api/')) {
      response.setHeader('content-type', 'text/html');
      response.end(page());
      return;
    }
    const to = new URL(target());
    const forwarded = httpRequest(
      {
        host: to.hostname,
        port: to.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: to.host },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
}

describe.skipIf(!hasChromium)('a page on a listed origin choosing a program (Chromium)', () => {
  let browser: Browser;
  let workbench: Workbench;
  let page: Server;
  let wbUrl = '';
  let pageUrl = '';
  let home: TempDir;
  let runtimeHome: TempDir;
  let scratch: TempDir;
  let repo: TempGitRepo;

  beforeAll(async () => {
    await ensureBuilt();
    home = await createTempDir({ prefix: 'keel-privileged-wb-' });
    runtimeHome = await createTempDir({ prefix: 'keel-privileged-rt-' });
    scratch = await createTempDir({ prefix: 'keel-privileged-marker-' });
    repo = await createTempGitRepo({ files: { 'a.txt': 'a\n' } });
    const marker = join(scratch.path, 'pwned');
    page = devServer(
      () => attackerPage(wbUrl, marker, repo.path),
      () => wbUrl,
    );
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    // The page's origin is on the CORS list, as localhost:3000 is by default (a fixed port could be taken
    // on a shared machine, so the list names the page's own port beside the defaults).
    workbench = await createWorkbench({
      home: home.path,
      env: {
        ...workbenchEnv(home, runtimeHome),
        WORKBENCH_CORS_ORIGINS: `http://localhost:3000,http://127.0.0.1:3000,http://localhost:8000,http://127.0.0.1:8000,${pageUrl}`,
      },
      spaDir: dist,
    });
    wbUrl = await workbench.listen(0);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => page?.close(resolve));
    await workbench?.close();
    for (const dir of [home, runtimeHome, scratch]) await dir?.remove();
    await repo?.remove();
  });

  test('a /bin/sh runner is refused with the reason, the command never runs, ordinary settings still save', async () => {
    const tab = await browser.newPage();
    await tab.goto(pageUrl);
    await tab.waitForFunction(() => (globalThis as unknown as { done?: boolean }).done === true, undefined, {
      timeout: 30_000,
    });
    const results = await tab.evaluate(
      () =>
        (
          globalThis as unknown as {
            results: Record<
              string,
              {
                status: number;
                error?: { code?: string; message?: string; details?: Record<string, unknown> };
              }
            >;
          }
        ).results,
    );
    await tab.screenshot({ path: join(shots, 'attack-privileged-change.png') });
    // Through the dev server the page's Origin is listed; the refusal says why and how.
    expect(results.plant?.status).toBe(403);
    expect(results.plant?.error).toMatchObject({
      code: 'PERMISSION_DENIED',
      details: { reason: 'privileged_change_from_other_origin', origin: pageUrl },
    });
    expect(results.plant?.error?.message).toContain('binary_path');
    expect(results.project).toMatchObject({ status: 422, error: { code: 'UNKNOWN_RUNNER' } });
    expect(results.ordinary?.status).toBe(200);
    expect(results.direct?.status).toBe('blocked: TypeError');

    const settings = await (await fetch(`${wbUrl}/api/settings`)).json();
    expect(settings).toMatchObject({ model: 'set-by-the-dev-server', runner_configs: [] });
    expect(await (await fetch(`${wbUrl}/api/projects`)).json()).toEqual({ projects: [] });
    expect(existsSync(join(scratch.path, 'pwned'))).toBe(false);
    await tab.close();
  });

  test("the workbench's own page may still choose a program", async () => {
    const tab = await browser.newPage();
    await tab.goto(`${wbUrl}/`);
    expect(await tab.title()).toBe('Keel workbench');
    const status = await tab.evaluate(async (url) => {
      const response = await fetch(`${url}/api/settings`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          runner_configs: [{ id: 'mine', name: 'Mine', kind: 'claude-code', binary_path: '/usr/bin/true' }],
        }),
      });
      return response.status;
    }, wbUrl);
    expect(status).toBe(200);
    const settings = (await (await fetch(`${wbUrl}/api/settings`)).json()) as { runner_configs: unknown };
    expect(settings.runner_configs).toMatchObject([{ id: 'mine', binary_path: '/usr/bin/true' }]);
    await tab.close();
  });
});
