// A hostile web page in a real Chromium against both local services on their defaults (no key): served
// from another local port, it tries fetch, a form POST and a WebSocket against the workbench and keel-web,
// and a DNS-rebinding name (mapped to 127.0.0.1 by the browser's resolver) tries to become same-origin.
// Nothing gets through; the services' own pages still read and write as before.
import { existsSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { join } from 'node:path';
import { createServer as createKeelWeb } from '@keel/server';
import {
  createTempDir,
  createTempGitRepo,
  startMockModel,
  type TempDir,
  type TempGitRepo,
} from '@keel/testkit';
import { createWorkbench, type Workbench } from '@keel/workbench';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dist, ensureBuilt, hasChromium, launchBrowser, shots, workbenchEnv } from './harness.ts';

/** The attacker's page: every attempt's outcome lands in `window.results`, then `window.done` is set. */
function attackerPage(workbench: string, keelWeb: string, workdir: string): string {
  const settings = JSON.stringify({ base_url: 'http://evil.example/v1', model: 'pwned' });
  const run = JSON.stringify({ prompt: 'write ~/.bashrc', workdir });
  return `<!doctype html><title>cute cats</title><body>
<script>
const results = {};
const outcome = (promise) => promise.then((r) => 'answered ' + r.status + ' ' + r.type, (e) => 'blocked: ' + e.name);
function socket(url) {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.onopen = () => { resolve('OPEN'); ws.close(); };
    ws.onclose = (event) => resolve('closed ' + event.code);
  });
}
function form(action, body) {
  return new Promise((resolve) => {
    const sink = document.createElement('iframe');
    sink.name = 'sink' + Math.random().toString(36).slice(2);
    sink.onload = () => resolve('loaded');
    document.body.appendChild(sink);
    const f = document.createElement('form');
    f.method = 'POST'; f.action = action; f.target = sink.name; f.enctype = 'text/plain';
    const input = document.createElement('input');
    input.name = body.slice(0, -2); input.value = body.slice(-2);
    f.appendChild(input); document.body.appendChild(f); f.submit();
  });
}
(async () => {
  results.wbRead = await outcome(fetch(${JSON.stringify(`${workbench}/api/settings`)}).then(async (r) => { await r.text(); return r; }));
  results.wbPost = await outcome(fetch(${JSON.stringify(`${workbench}/api/projects`)}, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: ${JSON.stringify(JSON.stringify({ name: 'pwned', repositories: [] }))} }));
  results.wbCors = await outcome(fetch(${JSON.stringify(`${workbench}/api/settings`)}, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(settings)} }));
  results.webRun = await outcome(fetch(${JSON.stringify(`${keelWeb}/runtime/runs`)}, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: ${JSON.stringify(run)} }));
  results.webConfig = await outcome(fetch(${JSON.stringify(`${keelWeb}/config`)}, { method: 'PUT', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: ${JSON.stringify(settings)} }));
  results.wbSocket = await socket(${JSON.stringify(`${workbench.replace('http', 'ws')}/api/ws`)});
  results.webSocket = await socket(${JSON.stringify(`${keelWeb.replace('http', 'ws')}/ws`)});
  results.webForm = await form(${JSON.stringify(`${keelWeb}/run`)}, ${JSON.stringify(run)});
  results.wbForm = await form(${JSON.stringify(`${workbench}/api/projects`)}, ${JSON.stringify(JSON.stringify({ name: 'pwned', repositories: [] }))});
  window.results = results;
  window.done = true;
})();
</script></body>`;
}

describe.skipIf(!hasChromium)('a hostile page in Chromium against both services (defaults)', () => {
  let browser: Browser;
  let workbench: Workbench;
  let keelWeb: FastifyInstance;
  let attacker: Server;
  let wbUrl = '';
  let webUrl = '';
  let attackerUrl = '';
  let home: TempDir;
  let runtimeHome: TempDir;
  let webHome: TempDir;
  let repo: TempGitRepo;
  const model = startMockModel({ script: [] });

  beforeAll(async () => {
    await ensureBuilt();
    home = await createTempDir({ prefix: 'keel-attack-wb-' });
    runtimeHome = await createTempDir({ prefix: 'keel-attack-rt-' });
    webHome = await createTempDir({ prefix: 'keel-attack-web-' });
    repo = await createTempGitRepo({ files: { 'a.txt': 'a\n' } });
    workbench = await createWorkbench({
      home: home.path,
      env: workbenchEnv(home, runtimeHome),
      spaDir: dist,
    });
    wbUrl = await workbench.listen(0);
    const configured = await fetch(`${wbUrl}/api/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock-model', base_url: (await model).url }),
    });
    expect(configured.status).toBe(200);
    keelWeb = await createKeelWeb({
      runtime: {
        env: {
          RUNTIME_HOME: webHome.path,
          RUNTIME_MODEL: 'mock-model',
          RUNTIME_MODEL_BASE_URL: (await model).url,
        },
      },
      workdir: repo.path,
    });
    webUrl = await keelWeb.listen({ port: 0, host: '127.0.0.1' });
    attacker = createHttpServer((_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(attackerPage(wbUrl, webUrl, repo.path));
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const address = attacker.address();
    attackerUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    // The rebinding attacker's name resolves to this machine, as its DNS would answer after the TTL.
    browser = await launchBrowser(['--host-resolver-rules=MAP rebind.attacker.test 127.0.0.1']);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => attacker?.close(resolve));
    await workbench?.close();
    await keelWeb?.close();
    await (await model).close();
    for (const dir of [home, runtimeHome, webHome]) await dir?.remove();
    await repo?.remove();
  });

  test('fetch, no-cors fetch, form POSTs and WebSockets from another origin change and read nothing', async () => {
    const page = await browser.newPage();
    await page.goto(attackerUrl);
    await page.waitForFunction(() => (globalThis as unknown as { done?: boolean }).done === true, undefined, {
      timeout: 30_000,
    });
    const results = await page.evaluate(
      () => (globalThis as unknown as { results: Record<string, string> }).results,
    );
    await page.screenshot({ path: join(shots, 'attack-page.png') });
    // Reading across origins is blocked by CORS; a CORS write never leaves the preflight.
    expect(results.wbRead).toBe('blocked: TypeError');
    expect(results.wbCors).toBe('blocked: TypeError');
    // No-cors POSTs and form POSTs are sent (the page cannot see the answer: opaque), and the guard
    // refuses them; a no-cors PUT the browser itself will not send.
    expect(results.wbPost).toBe('answered 0 opaque');
    expect(results.webRun).toBe('answered 0 opaque');
    expect(results.webConfig).toBe('blocked: TypeError');
    expect(results.webForm).toBe('loaded');
    expect(results.wbForm).toBe('loaded');
    expect(results.wbSocket).toBe('closed 1006');
    expect(results.webSocket).toBe('closed 1006');

    const settings = await (await fetch(`${wbUrl}/api/settings`)).json();
    expect(settings).toMatchObject({ model: 'mock-model', base_url: (await model).url });
    expect(await (await fetch(`${wbUrl}/api/projects`)).json()).toEqual({ projects: [] });
    expect(await (await fetch(`${webUrl}/runtime/runs`)).json()).toMatchObject({ runs: [] });
    expect(existsSync(join(webHome.path, 'config.json'))).toBe(false);
    expect((await model).requests).toHaveLength(0);
    await page.close();
  });

  test('a DNS-rebinding name gets no page, no data and no socket from either service', async () => {
    const page = await browser.newPage();
    for (const base of [wbUrl, webUrl]) {
      const rebound = base.replace('127.0.0.1', 'rebind.attacker.test');
      const answer = await page.goto(`${rebound}/`);
      expect(answer?.status(), rebound).toBe(403);
      expect(await page.textContent('body')).toContain('host_not_allowed');
      // Now "same-origin" with the service under the attacker's name, the page tries its API.
      const tries = await page.evaluate(async (url) => {
        const read = await fetch(`${url}/api/settings`).then((r) => r.status);
        const write = await fetch(`${url}/config`, { method: 'PUT', body: '{"model":"pwned"}' }).then(
          (r) => r.status,
        );
        return { read, write };
      }, rebound);
      expect(tries).toEqual({ read: 403, write: 403 });
    }
    await page.screenshot({ path: join(shots, 'attack-rebinding.png') });
    expect(existsSync(join(webHome.path, 'config.json'))).toBe(false);
    await page.close();
  });

  test("the services' own pages still read and write through the guard", async () => {
    const page = await browser.newPage();
    await page.goto(`${wbUrl}/`);
    expect(await page.title()).toBe('Keel workbench');
    const wbWrite = await page.evaluate(async (url) => {
      const response = await fetch(`${url}/api/settings`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'mock-model-2' }),
      });
      return response.status;
    }, wbUrl);
    expect(wbWrite).toBe(200);
    await page.goto(`${webUrl}/console`);
    const webWrite = await page.evaluate(async (url) => {
      const response = await fetch(`${url}/config`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'console-model' }),
      });
      const socket = await new Promise((resolve) => {
        const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`);
        ws.onopen = () => {
          resolve('open');
          ws.close();
        };
        ws.onclose = (event) => resolve(`closed ${event.code}`);
      });
      return { status: response.status, socket };
    }, webUrl);
    expect(webWrite).toEqual({ status: 200, socket: 'open' });
    expect(JSON.parse(readFileSync(join(webHome.path, 'config.json'), 'utf8'))).toMatchObject({
      model: 'console-model',
    });
    await page.close();
  });

  test('the settings page says when a key was cleared because its base URL changed without it', async () => {
    const modelUrl = (await model).url;
    await fetch(`${wbUrl}/api/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ base_url: modelUrl, api_key: 'sk-bound' }),
    });
    const page = await browser.newPage();
    await page.goto(`${wbUrl}/settings`);
    await page.getByText('Ready: AI actions can run.').waitFor();
    await page.getByLabel('Base URL').fill('http://localhost:11434/v1');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const notice = page.getByTestId('cleared-secrets');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('api_key was removed because base_url changed without it');
    await page
      .getByTestId('settings-check')
      .getByText('a key is only sent to the base_url it was saved with')
      .waitFor();
    await page.screenshot({ path: join(shots, 'settings-key-cleared.png'), fullPage: true });
    const settings = await (await fetch(`${wbUrl}/api/settings`)).json();
    expect(settings).toMatchObject({ base_url: 'http://localhost:11434/v1', api_key_set: false });
    expect(readFileSync(join(home.path, 'secrets.json'), 'utf8')).not.toContain('sk-bound');
    await page.close();
  });
});
