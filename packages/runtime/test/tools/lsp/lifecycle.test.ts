import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTempDir, eventually, type TempDir } from '@keel/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRuntime } from '../../../src/index.ts';
import { type LspConfig, LspServers, type ToolContext } from '../../../src/tools/index.ts';
import { contextFor, runTool, writeFiles } from '../helpers.ts';
import { expectGone, languageServerProcesses } from './lsp-processes.ts';

// Servers here are pyright (the quicker to start) and small Node programs that fail the ways servers do.
const project = { 'main.py': 'def greet(name: str) -> str:\n    return "Hello, " + name\n\ngreet("x")\n' };
const hover = { file_path: 'main.py', line: 4, symbol: 'greet' };
const greetHover = 'main.py:4:1 `greet`:\n```python\n(function) def greet(name: str) -> str\n```';

let dir: TempDir;

beforeAll(async () => {
  dir = await createTempDir({ prefix: 'keel-lsp-life-' });
  await writeFiles(dir.path, project);
});

afterAll(async () => {
  expect(languageServerProcesses()).toEqual([]);
  await dir?.remove();
});

/** A context on the project with servers of its own under `config`, and the servers to close. */
async function setup(config?: LspConfig, signal?: AbortSignal) {
  const servers = new LspServers();
  const ctx: ToolContext = { ...(await contextFor(dir.path, {}, signal)), lsp: { servers, config } };
  return {
    servers,
    ctx,
    call: (name: string, args: unknown) => runTool(ctx, name, args),
    async [Symbol.asyncDispose]() {
      const pids = languageServerProcesses().map((info) => info.pid);
      await servers.close();
      await expectGone(pids);
    },
  };
}

async function failure(work: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught as { code: string; message: string },
  );
  expect(error, 'the call should have failed').toBeDefined();
  return { code: error?.code ?? '', message: error?.message ?? '' };
}

describe('servers that cannot serve fail the call with a clear error, never a hang', () => {
  test('a server command that does not exist (config lsp.servers)', async () => {
    await using s = await setup({ servers: { python: { command: 'keel-no-such-language-server' } } });
    const started = Date.now();
    expect(await failure(s.call('lsp_diagnostics', { file_path: 'main.py' }))).toEqual({
      code: 'TOOL_ERROR',
      message:
        "The Python language server (keel-no-such-language-server) could not start: the command 'keel-no-such-language-server' " +
        'was not found. Install it, or set lsp.servers.python.command in the configuration to a server that speaks LSP on stdio.',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    // A failed start is not remembered: the same call fails the same way again, and nothing runs.
    expect((await failure(s.call('lsp_hover', hover))).message).toContain('could not start');
    expect(await s.servers.running()).toEqual([]);
  });

  test('a server that exits while starting: its code and last words', async () => {
    await using s = await setup({
      servers: {
        typescript: {
          command: process.execPath,
          args: ['-e', 'process.stderr.write("boom: no project here\\n"); process.exit(3)'],
        },
      },
    });
    await writeFiles(dir.path, { 'app.ts': 'export const a = 1;\n' });
    const { code, message } = await failure(s.call('lsp_diagnostics', { file_path: 'app.ts' }));
    expect(code).toBe('TOOL_ERROR');
    expect(message).toMatch(/^The TypeScript\/JavaScript language server \(node\S*\) exited with code 3\./);
    expect(message).toContain('boom: no project here');
  });

  test('a server that never answers is given up after lsp.start_timeout_ms, and stopped', async () => {
    await using s = await setup({
      start_timeout_ms: 500,
      servers: { python: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] } },
    });
    const started = Date.now();
    expect(await failure(s.call('lsp_hover', hover))).toEqual({
      code: 'TOOL_ERROR',
      message:
        'The Python language server (node) did not finish starting within 500 ms (config lsp.start_timeout_ms).',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await s.servers.running()).toEqual([]);
  });

  test('an embedder can set the command too (RuntimeOptions.lsp, over config files)', async () => {
    const runtimeDir = await mkdtemp(join(tmpdir(), 'keel-home-'));
    const runtime = createRuntime({
      runtimeDir,
      env: {},
      lsp: { servers: { python: { command: 'keel-no-such-language-server' } } },
    });
    try {
      expect((await failure(runtime.callTool('lsp_hover', hover, dir.path))).message).toContain(
        "the command 'keel-no-such-language-server' was not found",
      );
    } finally {
      await runtime.close();
      await rm(runtimeDir, { recursive: true, force: true });
    }
  });

  test('a cancelled call stops waiting at once', async () => {
    const controller = new AbortController();
    controller.abort();
    await using s = await setup(undefined, controller.signal);
    expect((await failure(s.call('lsp_hover', hover))).code).toBe('CANCELLED');
  });
});

describe('server lifetimes', () => {
  test('a server that died is replaced by the next query', async () => {
    await using s = await setup();
    expect(await s.call('lsp_hover', hover)).toBe(greetHover);
    const [first] = await s.servers.running();
    process.kill(first?.pid ?? 0, 'SIGKILL');
    // Once the runtime has seen the exit (a query in that moment fails, naming the signal), a new one starts.
    await eventually(async () => (await s.servers.running()).length === 0, { what: 'the exit to be seen' });
    expect(await s.call('lsp_hover', hover)).toBe(greetHover);
    const [second] = await s.servers.running();
    expect(second?.pid).toBeDefined();
    expect(second?.pid).not.toBe(first?.pid);
  }, 60_000);

  test('an idle server stops after lsp.idle_timeout_ms; the next query starts it again', async () => {
    await using s = await setup({ idle_timeout_ms: 300 });
    expect(await s.call('lsp_hover', hover)).toBe(greetHover);
    const [first] = await s.servers.running();
    await eventually(async () => (await s.servers.running()).length === 0, {
      what: 'the idle server to stop',
    });
    await expectGone([first?.pid ?? 0]);
    expect(await s.call('lsp_hover', hover)).toBe(greetHover);
  }, 60_000);

  test('a tool context without the runtime’s servers gets servers for one call only', async () => {
    const ctx = await contextFor(dir.path);
    expect(await runTool(ctx, 'lsp_hover', hover)).toBe(greetHover);
    await expectGone(languageServerProcesses().map((info) => info.pid));
    expect(languageServerProcesses()).toEqual([]);
  }, 60_000);

  test('Runtime.callTool shares one server per workdir and language, and Runtime.close stops it', async () => {
    const runtimeDir = await mkdtemp(join(tmpdir(), 'keel-home-'));
    const runtime = createRuntime({ runtimeDir, env: {} });
    try {
      expect(await runtime.callTool('lsp_hover', hover, dir.path)).toBe(greetHover);
      const pids = languageServerProcesses().map((info) => info.pid);
      expect(pids).toHaveLength(1);
      expect(await runtime.callTool('lsp_diagnostics', { file_path: 'main.py' }, dir.path)).toBe(
        'No problems in main.py (pyright).',
      );
      expect(languageServerProcesses().map((info) => info.pid)).toEqual(pids);
      await runtime.close();
      await expectGone(pids);
    } finally {
      await runtime.close();
      await rm(runtimeDir, { recursive: true, force: true });
    }
  }, 60_000);
});
