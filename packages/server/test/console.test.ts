// The console's serving (the built app from @keel/workbench-web, its assets, auth's open paths) and, in
// Debian's Chromium, the two things every console user does first: run and approve, and give the API key.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createCodingTools } from '@keel/runtime';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dist, ensureBuilt, hasChromium, launchBrowser, openPage } from '../../workbench-web/test/harness.ts';
import { findConsoleDir } from '../src/routes/console.ts';
import { startServer } from './harness.ts';

const shots = join(import.meta.dirname, 'screenshots');

beforeAll(async () => {
  await ensureBuilt();
}, 120_000);

describe('serving the console', () => {
  test('/ and /console serve the built page; its hashed assets are cached for good and gzipped', async () => {
    expect(findConsoleDir()).toBe(join(dist, 'console'));
    await using s = await startServer([]);
    const root = await fetch(`${s.base}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/console');
    for (const path of ['/console', '/console/']) {
      const page = await s.exchange('GET', path);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(page.body).toContain('<div id="root"></div>');
    }
    const html = await readFile(join(dist, 'console', 'index.html'), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map(
      (match) => match[1] ?? '',
    );
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const plain = await fetch(`${s.base}${asset}`, { headers: { 'accept-encoding': 'identity' } });
      expect(plain.status).toBe(200);
      expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(plain.headers.get('content-type')).toMatch(/^(text\/javascript|text\/css)/);
      const file = await readFile(join(dist, asset.replace(/^\//, '')));
      expect(Buffer.from(await plain.arrayBuffer()).equals(file)).toBe(true);
      // Asked for gzip: the same bytes, compressed (node's fetch would undo it, so read the raw body).
      const zipped = await rawGet(`${s.base}${asset}`, { 'accept-encoding': 'gzip' });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toBe('accept-encoding');
      expect(gunzipSync(zipped.body).equals(file)).toBe(true);
      expect(zipped.body.length).toBeLessThan(file.length);
    }
  });

  test('an unknown asset or a path out of the folder is a 404 in the error shape', async () => {
    await using s = await startServer([]);
    for (const path of [
      '/console/assets/nope.js',
      '/console/assets/..%2F..%2Fpackage.json',
      '/console/index.html',
    ]) {
      const answer = await s.api('GET', path);
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('NOT_FOUND');
    }
  });

  test('with an API key the page and its assets stay open; /console/info needs the key', async () => {
    await using s = await startServer([], { apiKey: 'sekret' });
    expect((await s.exchange('GET', '/console')).status).toBe(200);
    const html = await readFile(join(dist, 'console', 'index.html'), 'utf8');
    const asset = /src="(\/console\/assets\/[^"]+)"/.exec(html)?.[1] ?? '';
    expect((await s.exchange('GET', asset)).status).toBe(200);
    const refused = await s.api('GET', '/console/info');
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('AUTHENTICATION_FAILED');
    const info = await s.api('GET', '/console/info', undefined, { authorization: 'Bearer sekret' });
    expect(info).toMatchObject({ status: 200, body: { version: '0.1.0', workdir: s.repo.path } });
    // Every built-in tool with its traits' kind: the console shows a call by what its tool does.
    expect(info.body.tools).toEqual(
      expect.arrayContaining([
        { name: 'exec_command', kind: 'execute' },
        { name: 'read_file', kind: 'read' },
      ]),
    );
    expect(info.body.tools.map((tool: { name: string }) => tool.name)).toEqual(createCodingTools().names());
  });

  test('without a built console /console says how to build it, and the API still works', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'keel-console-none-'));
    try {
      await using s = await startServer([], { consoleDir: empty });
      const page = await s.exchange('GET', '/console');
      expect(page.status).toBe(200);
      expect(page.body).toContain('its console is not built');
      expect((await s.api('GET', '/console/assets/index.js')).status).toBe(404);
      expect((await s.api('GET', '/runtime/runs')).status).toBe(200);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

// Debian's Chromium, installed by .ci/run; a downloaded browser does not work on these machines.
describe.skipIf(!hasChromium)('the browser console (Chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  test('a person starts a run, watches it answer, and approves a write from "Waiting for you"', async () => {
    await using s = await startServer(
      [
        { text: 'Hello from the console.' },
        { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'approved\n' } }] },
        { when: { lastRole: 'tool' }, text: 'Wrote notes.txt.' },
      ],
      { config: { security: { require_approval: ['write_file'] } } },
    );
    const errors: string[] = [];
    const page = await openPage(browser, errors);
    try {
      await page.goto(`${s.base}/`);
      const form = page.getByRole('form', { name: 'New run' });
      await expect.poll(() => form.getByLabel('Working directory').inputValue()).toBe(s.repo.path);

      await form.getByLabel('Prompt').fill('say hello');
      await form.getByRole('button', { name: 'Start run' }).click();
      const transcript = page.getByTestId('transcript');
      await transcript.locator('.t-assistant', { hasText: 'Hello from the console.' }).waitFor();
      await page.getByTestId('run-status').getByText('succeeded').waitFor();
      const runs = page.getByRole('region', { name: 'Runs' });
      await runs.locator('li', { hasText: 'say hello' }).waitFor();

      await form.getByLabel('Prompt').fill('write notes');
      await form.getByRole('button', { name: 'Start run' }).click();
      await transcript.getByRole('region', { name: 'Approval' }).getByText('Allow write_file').waitFor();
      const waiting = page.getByRole('region', { name: 'Waiting for you' });
      const item = waiting.getByRole('region', { name: 'Approval' }).filter({ hasText: 'Allow write_file' });
      await item.getByRole('button', { name: 'Approve' }).click();
      await transcript.locator('.t-assistant', { hasText: 'Wrote notes.txt.' }).waitFor();
      await page.getByTestId('run-status').getByText('succeeded').waitFor();
      // The transcript's request shows the decision, without buttons.
      const ask = transcript.getByRole('region', { name: 'Approval' });
      await ask.locator('.approval-decision', { hasText: 'approved' }).waitFor();
      expect(await ask.getByRole('button').count()).toBe(0);
      await waiting.getByText('Nothing waits for you.').waitFor();
      await runs.locator('li', { hasText: 'write notes' }).getByText('succeeded').waitFor();
      expect(await readFile(join(s.repo.path, 'notes.txt'), 'utf8')).toBe('approved\n');
      // Opening the first run again replays its transcript.
      await runs.locator('li', { hasText: 'say hello' }).getByRole('link').click();
      await transcript.locator('.t-assistant', { hasText: 'Hello from the console.' }).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  test('with an API key the page asks for it, then works; a wrong key keeps asking', async () => {
    await using s = await startServer([{ text: 'Keyed.' }], { apiKey: 'sekret' });
    const errors: string[] = [];
    const page = await openPage(browser, errors);
    try {
      await page.goto(`${s.base}/console`);
      const prompt = page.getByRole('form', { name: 'keel-web API key' });
      await prompt.waitFor();
      await prompt.getByLabel('API key').fill('wrong');
      await prompt.getByLabel('API key').press('Enter');
      await prompt.locator('.error-note', { hasText: 'AUTHENTICATION_FAILED' }).waitFor();
      await mkdir(shots, { recursive: true });
      await page.screenshot({ path: join(shots, 'console-key-prompt.png') });
      await prompt.getByLabel('API key').fill('sekret');
      await prompt.getByRole('button', { name: 'Continue' }).click();
      await prompt.waitFor({ state: 'detached' });
      const form = page.getByRole('form', { name: 'New run' });
      await expect.poll(() => form.getByLabel('Working directory').inputValue()).toBe(s.repo.path);
      await form.getByLabel('Prompt').fill('hi');
      await form.getByRole('button', { name: 'Start run' }).click();
      await page.getByTestId('transcript').locator('.t-assistant', { hasText: 'Keyed.' }).waitFor();
      // The key was kept for this server's console, under its own name.
      expect(await page.evaluate(() => localStorage.getItem('keel-web-api-key'))).toBe('sekret');
      // A refused request shows the API's message next to the field it is about.
      await form.getByLabel('Prompt').fill('elsewhere');
      await form.getByLabel('Working directory').fill('/no/such/dir');
      await form.getByRole('button', { name: 'Start run' }).click();
      await form.locator('[data-error-for="workdir"]', { hasText: 'is not a directory' }).waitFor();
      // 401s while the key was missing are the prompt's business, not page errors.
      expect(errors.filter((error) => !/401/.test(error))).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);
});

/** A GET whose body is not decoded (node's fetch undoes gzip). */
async function rawGet(url: string, headers: Record<string, string>) {
  const { request } = await import('node:http');
  return new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      request(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      })
        .on('error', reject)
        .end();
    },
  );
}
