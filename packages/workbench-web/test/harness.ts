// What the browser tests share: building dist/ when stale, git in a temp repo, the workbench's environment,
// and a headless Debian Chromium whose page errors fail the test that caused them.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TempDir } from '@keel/testkit';
import { type Browser, chromium, type Page } from 'playwright-core';

export const executablePath = '/usr/bin/chromium';
export const hasChromium = existsSync(executablePath);
export const packageDir = join(import.meta.dirname, '..');
export const dist = join(packageDir, 'dist');
export const shots = join(packageDir, 'test', 'screenshots');
const viteBin = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');

/** The newest modification time under `dir` (ms). */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** Builds dist/ when it is missing or older than the sources (a build takes a few seconds). */
export async function ensureBuilt(): Promise<void> {
  const built = join(dist, 'index.html');
  const sources = Math.max(newest(join(packageDir, 'src')), statSync(join(packageDir, 'index.html')).mtimeMs);
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  // In its own process: inside vitest NODE_ENV is 'test', and Vite would bundle React's development build.
  execFileSync(process.execPath, [viteBin, 'build', '--logLevel', 'warn'], {
    cwd: packageDir,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  }).trim();
}

export function workbenchEnv(
  home: TempDir,
  runtimeHome: TempDir,
  authKey?: string,
): Record<string, string | undefined> {
  return {
    ...process.env,
    WORKBENCH_HOME: home.path,
    RUNTIME_HOME: runtimeHome.path,
    RUNTIME_MODEL: undefined,
    RUNTIME_MODEL_API_KEY: undefined,
    WORKBENCH_AUTH_API_KEY: authKey,
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * A 1280 px page whose script errors are collected in `errors` (a test reports them with its own failure
 * rather than a timeout). The browser's own "Failed to load resource" lines for expected 4xx answers are not.
 */
export async function openPage(browser: Browser, errors: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      errors.push(message.text());
    }
  });
  return page;
}

/** JSON from the service, failing loudly on anything but 2xx. */
export async function call<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}
