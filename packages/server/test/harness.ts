import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTempGitRepo, eventually, type ScriptedReply, startMockModel } from '@keel/testkit';
import { createServer, type ServerOptions } from '../src/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions, not by types
type Body = any;

/**
 * A real keel-web server on a free port, over a scripted model, a temp runtime home (with an optional
 * global config) and a temp git repo. `api` calls it as any HTTP client would.
 */
export async function startServer(
  script: ScriptedReply[],
  options: {
    config?: Record<string, unknown>;
    files?: Record<string, string>;
    apiKey?: string;
    streamIdleMs?: number;
    rateLimit?: ServerOptions['rateLimit'];
    /** The clock of the guard's wrong-key window. */
    now?: () => number;
    /** The built console to serve (default: the one @keel/workbench-web built). */
    consoleDir?: string;
    /** Over the default environment; an undefined value removes the variable. */
    env?: Record<string, string | undefined>;
    /** RuntimeOptions.trustProjectConfig of the server's runtimes (default: the global trust list). */
    trustProjectConfig?: boolean;
  } = {},
) {
  const model = await startMockModel({ script });
  const home = await mkdtemp(join(tmpdir(), 'keel-web-home-'));
  const repo = await createTempGitRepo({ files: options.files ?? {} });
  if (options.config) {
    await mkdir(home, { recursive: true });
    await writeFile(join(home, 'config.json'), JSON.stringify(options.config));
  }
  const env = Object.fromEntries(
    Object.entries({
      RUNTIME_HOME: home,
      RUNTIME_MODEL: 'mock-model',
      RUNTIME_MODEL_BASE_URL: model.url,
      ...options.env,
    }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const app = await createServer({
    runtime: {
      env,
      retry: { baseDelayMs: 5, maxDelayMs: 20 },
      ...(options.trustProjectConfig !== undefined ? { trustProjectConfig: options.trustProjectConfig } : {}),
    },
    workdir: repo.path,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.streamIdleMs ? { streamIdleMs: options.streamIdleMs } : {}),
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.consoleDir ? { consoleDir: options.consoleDir } : {}),
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });

  /** As `api`, with the response's headers too. */
  async function exchange<T = Body>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: T; headers: Headers }> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  async function api<T = Body>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: T }> {
    const { status, body: answer } = await exchange<T>(method, path, body, headers);
    return { status, body: answer };
  }

  /** Polls the run's detail until `done` says so (10 s at most). */
  async function until(runId: string, done: (run: Body) => boolean): Promise<Body> {
    let last: Body;
    return eventually(
      async () => {
        last = (await api('GET', `/runtime/runs/${runId}`)).body;
        return done(last) && last;
      },
      { timeoutMs: 10_000, intervalMs: 50, what: () => `run ${runId} to change; it stayed ${last?.status}` },
    );
  }

  return {
    app,
    base,
    model,
    home,
    repo,
    env,
    api,
    exchange,
    until,
    async [Symbol.asyncDispose]() {
      await app.close();
      await model.close();
      await repo.remove();
      await rm(home, { recursive: true, force: true });
    },
  };
}
