import { randomBytes, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { TestkitError } from '../errors.ts';
import { streamCommand } from './exec.ts';
import { deleteEntry, type HashCache, listEntries, putEntry, segmentsOf, sendFile } from './files.ts';
import { decodeSegment, directoryIn, jsonBody, notFound, parse, send } from './http.ts';
import { ProtocolError } from './protocol-error.ts';

/** Options of `startRemoteSandboxServer`. */
export interface RemoteSandboxServerOptions {
  /** The bearer token every request must carry; without one, every request passes. */
  token?: string;
  /** Default 0: a free port. */
  port?: number;
  /** The largest file a `PUT` takes (default 256 MiB). */
  maxFileBytes?: number;
  /** How often unused sandboxes are looked for and destroyed (default 1000 ms). */
  reapIntervalMs?: number;
}

/** A sandbox the server holds. */
export interface RemoteSandboxRecord {
  id: string;
  /** Its workdir on this machine: what commands run in and the file endpoints address. */
  workdir: string;
  network: 'none' | 'host';
  idleTimeoutS: number;
}

/** The running reference server. */
export interface RemoteSandboxServer extends AsyncDisposable {
  /** `http://127.0.0.1:PORT`: the base URL for `sandbox.remote.url`. */
  url: string;
  port: number;
  /** Every request so far, `{ method, path }` (path without the query), for tests to count. */
  requests: { method: string; path: string }[];
  /** The sandboxes alive now. */
  sandboxes(): RemoteSandboxRecord[];
  /** Commands running now, in every sandbox. */
  running(): number;
  /** Stops the server, its commands, and removes every sandbox. */
  close(): Promise<void>;
}

interface Sandbox extends RemoteSandboxRecord {
  base: string;
  scratch: string;
  lastUsed: number;
  execs: Map<string, () => void>;
  hashes: HashCache;
}

const createBody = z.strictObject({
  network: z.enum(['none', 'host']).optional(),
  idle_timeout_s: z.number().int().positive().max(86_400).optional(),
});
const execBody = z.strictObject({
  argv: z.array(z.string().max(1_000_000)).min(1).max(10_000),
  cwd: z.string().max(4096).optional(),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()).optional(),
});
const defaultIdleTimeoutS = 1800;

/**
 * Starts the reference remote-sandbox server (docs/remote-sandbox.md) on 127.0.0.1: each sandbox is a
 * temporary directory on this machine and commands run there as plain child processes. It is the
 * protocol's reference and a test double, NOT a security boundary: a command can reach the whole machine.
 */
export async function startRemoteSandboxServer(
  options: RemoteSandboxServerOptions = {},
): Promise<RemoteSandboxServer> {
  checkOptions(options);
  const maxFileBytes = options.maxFileBytes ?? 256 * 1024 * 1024;
  const sandboxes = new Map<string, Sandbox>();
  const requests: { method: string; path: string }[] = [];
  const home = await realpath(await mkdtemp(join(tmpdir(), 'keel-remote-sandboxes-')));
  const expected = options.token === undefined ? undefined : Buffer.from(`Bearer ${options.token}`);

  const destroy = async (sandbox: Sandbox) => {
    sandboxes.delete(sandbox.id);
    for (const stop of sandbox.execs.values()) stop();
    await rm(sandbox.base, { recursive: true, force: true });
  };

  const sandboxOf = (id: string | undefined): Sandbox => {
    const sandbox = sandboxes.get(id ?? '');
    if (!sandbox) throw new ProtocolError(404, 'SANDBOX_NOT_FOUND', `No sandbox "${id}".`, { id });
    sandbox.lastUsed = Date.now();
    return sandbox;
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push({ method, path: url.pathname });
    if (expected) {
      const given = Buffer.from(req.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res.setHeader('www-authenticate', 'Bearer');
        throw new ProtocolError(
          401,
          'AUTHENTICATION_FAILED',
          'Missing or invalid token: send Authorization: Bearer <token>.',
        );
      }
    }
    const parts = url.pathname.split('/').slice(1).map(decodeSegment);
    if (parts[0] !== 'v1' || parts[1] !== 'sandboxes') throw notFound(url.pathname);
    const [, , id, resource, ...rest] = parts;
    const allow = (...methods: string[]) => {
      if (methods.includes(method)) return;
      res.setHeader('allow', methods.join(', '));
      throw new ProtocolError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${url.pathname}.`);
    };

    if (id === undefined || (id === '' && parts.length === 3)) {
      allow('POST');
      const body = parse(createBody, await jsonBody(req, true));
      const sandboxId = `sbx_${randomBytes(8).toString('hex')}`;
      const base = join(home, sandboxId);
      const sandbox: Sandbox = {
        id: sandboxId,
        base,
        workdir: join(base, 'work'),
        scratch: join(base, 'scratch'),
        network: body.network ?? 'none',
        idleTimeoutS: body.idle_timeout_s ?? defaultIdleTimeoutS,
        lastUsed: Date.now(),
        execs: new Map(),
        hashes: new Map(),
      };
      for (const dir of ['work', 'scratch', 'home', 'tmp']) await mkdir(join(base, dir), { recursive: true });
      sandboxes.set(sandboxId, sandbox);
      return send(res, 201, describe(sandbox));
    }
    if (resource === undefined) {
      allow('GET', 'DELETE');
      const sandbox = sandboxOf(id);
      if (method === 'GET') return send(res, 200, describe(sandbox));
      await destroy(sandbox);
      return send(res, 204);
    }
    if (resource === 'files' && rest.length === 0) {
      allow('GET');
      const sandbox = sandboxOf(id);
      return send(res, 200, { entries: await listEntries(sandbox.workdir, sandbox.hashes) });
    }
    if (resource === 'files') {
      allow('GET', 'PUT', 'DELETE');
      const sandbox = sandboxOf(id);
      const segments = segmentsOf(rest.join('/'));
      if (method === 'GET') return sendFile(sandbox.workdir, segments, res);
      if (method === 'DELETE') {
        await deleteEntry(sandbox.workdir, segments);
        return send(res, 204);
      }
      const type = url.searchParams.get('type') ?? 'file';
      const executable = url.searchParams.get('executable') ?? 'false';
      if (type !== 'file' && type !== 'directory' && type !== 'symlink') {
        throw new ProtocolError(400, 'INVALID_PARAMS', 'type must be file, directory or symlink.', { type });
      }
      if (executable !== 'true' && executable !== 'false') {
        throw new ProtocolError(400, 'INVALID_PARAMS', 'executable must be true or false.', { executable });
      }
      await putEntry(
        sandbox.workdir,
        sandbox.scratch,
        segments,
        type,
        executable === 'true',
        req,
        maxFileBytes,
      );
      return send(res, 204);
    }
    if (resource === 'exec' && rest.length === 0) {
      allow('POST');
      const sandbox = sandboxOf(id);
      const body = parse(execBody, await jsonBody(req, false));
      const cwd = body.cwd ? await directoryIn(sandbox.workdir, body.cwd) : sandbox.workdir;
      const execId = `exe_${randomBytes(8).toString('hex')}`;
      const env = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        LANG: 'C.UTF-8',
        HOME: join(sandbox.base, 'home'),
        TMPDIR: join(sandbox.base, 'tmp'),
        ...body.env,
      };
      return streamCommand({
        execId,
        argv: body.argv,
        cwd,
        env,
        res,
        onStart: (stop) => sandbox.execs.set(execId, stop),
        onEnd: () => {
          sandbox.execs.delete(execId);
          sandbox.lastUsed = Date.now();
        },
      });
    }
    if (resource === 'exec' && rest.length === 1) {
      allow('DELETE');
      const stop = sandboxOf(id).execs.get(rest[0] as string);
      if (!stop)
        throw new ProtocolError(404, 'EXEC_NOT_FOUND', `No running command "${rest[0]}".`, {
          exec_id: rest[0],
        });
      stop();
      return send(res, 204);
    }
    throw notFound(url.pathname);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const refusal =
        error instanceof ProtocolError
          ? error
          : new ProtocolError(500, 'SERVER_ERROR', `The sandbox server failed: ${(error as Error).message}`);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      send(res, refusal.status, refusal.body());
      // A refused upload may still be arriving: stop reading it.
      if (!req.complete) req.resume();
    });
  });
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;

  const reaper = setInterval(() => {
    for (const sandbox of sandboxes.values()) {
      if (sandbox.execs.size === 0 && Date.now() - sandbox.lastUsed > sandbox.idleTimeoutS * 1000) {
        void destroy(sandbox);
      }
    }
  }, options.reapIntervalMs ?? 1000);
  reaper.unref();

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      clearInterval(reaper);
      await Promise.all([...sandboxes.values()].map(destroy));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(home, { recursive: true, force: true });
    })();
    return closing;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    sandboxes: () => [...sandboxes.values()].map(describeRecord),
    running: () => [...sandboxes.values()].reduce((sum, sandbox) => sum + sandbox.execs.size, 0),
    close,
    [Symbol.asyncDispose]: close,
  };
}

function describe(sandbox: Sandbox) {
  return {
    id: sandbox.id,
    workdir: sandbox.workdir,
    network: sandbox.network,
    idle_timeout_s: sandbox.idleTimeoutS,
  };
}

function describeRecord(sandbox: Sandbox): RemoteSandboxRecord {
  return {
    id: sandbox.id,
    workdir: sandbox.workdir,
    network: sandbox.network,
    idleTimeoutS: sandbox.idleTimeoutS,
  };
}

/** Options are checked like the mock model's: a wrong one throws at start, naming it. */
function checkOptions(options: RemoteSandboxServerOptions): void {
  for (const name of ['port', 'maxFileBytes', 'reapIntervalMs'] as const) {
    const value = options[name];
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      throw new TestkitError('INVALID_OPTIONS', `${name} must be a non-negative integer.`, {
        details: { [name]: value },
      });
    }
  }
}
