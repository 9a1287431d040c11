// The remote sandbox protocol (docs/remote-sandbox.md) as seen from the client. Node built-ins only: the
// client program that uses it starts for every command, so it must load quickly.
import type { Agent as HttpAgent, IncomingMessage } from 'node:http';
import { nodeHttp, nodeHttps } from '../net/index.ts';

/** The variable the token reaches the client program in (RemoteSandbox sets it; commands never see it). */
export const tokenVariable = 'KEEL_REMOTE_SANDBOX_TOKEN';

/** One entry of a sandbox's file listing (`GET /v1/sandboxes/{id}/files`). */
export interface RemoteEntry {
  /** Relative to the sandbox's workdir, `/`-separated. */
  path: string;
  type: 'file' | 'directory' | 'symlink';
  /** Files: size in bytes, SHA-256 of the contents (hex) and whether the executable bit is set. */
  size?: number;
  sha256?: string;
  executable?: boolean;
  /** Symlinks: the link's target, as written. */
  target?: string;
}

/** A sandbox as `POST /v1/sandboxes` and `GET /v1/sandboxes/{id}` describe it. */
export interface RemoteSandboxInfo {
  id: string;
  /** The absolute path of the sandbox's workdir on the remote side (informative). */
  workdir?: string;
  idle_timeout_s?: number;
}

/** One line of the NDJSON stream of `POST /v1/sandboxes/{id}/exec`. */
export type ExecLine =
  | { exec_id: string }
  | { stream: 'stdout' | 'stderr'; data: string }
  | { exit_code: number | null; signal?: string | null }
  | { error: { code: string; message: string; details?: unknown } };

/** How a remote command ended. */
export interface ExecEnd {
  exit_code: number | null;
  signal: string | null;
}

/** A refusal of the server (its error body) or a failure to reach it. */
export class RemoteApiError extends Error {
  readonly status: number | undefined;
  readonly code: string;
  constructor(message: string, code: string, status?: number) {
    super(message);
    this.name = 'RemoteApiError';
    this.code = code;
    this.status = status;
  }
}

/** `a/b c/d` as a URL path: each segment percent-encoded. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** The protocol's calls, over `fetch`. */
export class RemoteSandboxApi {
  readonly #base: string;
  readonly #headers: Record<string, string>;
  #agent: HttpAgent | undefined;

  /** `url` is the provider's base URL; the endpoints are under `{url}/v1/`. */
  constructor(url: string, token?: string) {
    this.#base = `${url.replace(/\/+$/, '')}/v1/sandboxes`;
    this.#headers = token ? { authorization: `Bearer ${token}` } : {};
  }

  async create(body: { network?: 'none' | 'host'; idle_timeout_s?: number }): Promise<RemoteSandboxInfo> {
    const info = (await this.#json('POST', '', body)) as RemoteSandboxInfo;
    if (typeof info?.id !== 'string' || info.id === '') {
      throw new RemoteApiError('the server created a sandbox but sent no id', 'BAD_RESPONSE');
    }
    return info;
  }

  async get(id: string): Promise<RemoteSandboxInfo> {
    return (await this.#json('GET', `/${encodeURIComponent(id)}`)) as RemoteSandboxInfo;
  }

  async destroy(id: string): Promise<void> {
    await this.#request('DELETE', `/${encodeURIComponent(id)}`);
  }

  async list(id: string): Promise<RemoteEntry[]> {
    const body = (await this.#json('GET', `/${encodeURIComponent(id)}/files`)) as { entries?: unknown };
    if (!Array.isArray(body?.entries))
      throw new RemoteApiError('the file listing has no entries', 'BAD_RESPONSE');
    return body.entries as RemoteEntry[];
  }

  async putFile(id: string, path: string, contents: Uint8Array, executable: boolean): Promise<void> {
    const query = executable ? '?executable=true' : '';
    await this.#request('PUT', `${this.#file(id, path)}${query}`, contents, 'application/octet-stream');
  }

  async putDirectory(id: string, path: string): Promise<void> {
    await this.#request('PUT', `${this.#file(id, path)}?type=directory`);
  }

  async putSymlink(id: string, path: string, target: string): Promise<void> {
    await this.#request('PUT', `${this.#file(id, path)}?type=symlink`, Buffer.from(target), 'text/plain');
  }

  async readFile(id: string, path: string): Promise<Buffer> {
    return this.#read(await this.#request('GET', this.#file(id, path)));
  }

  async remove(id: string, path: string): Promise<void> {
    await this.#request('DELETE', this.#file(id, path));
  }

  /** Asks the server to stop a running command (best effort: it may have ended already). */
  async kill(id: string, execId: string, signal?: AbortSignal): Promise<void> {
    await this.#request(
      'DELETE',
      `/${encodeURIComponent(id)}/exec/${encodeURIComponent(execId)}`,
      undefined,
      '',
      signal,
    );
  }

  /**
   * Runs `argv` in the sandbox, handing every line of the stream to `onLine` as it arrives, and resolves
   * with how the command ended. Aborting `signal` closes the stream, which also stops the command.
   */
  async exec(
    id: string,
    body: { argv: readonly string[]; cwd: string; env?: Record<string, string> },
    onLine: (line: ExecLine) => void,
    signal?: AbortSignal,
  ): Promise<ExecEnd> {
    const response = await this.#request(
      'POST',
      `/${encodeURIComponent(id)}/exec`,
      JSON.stringify(body),
      'application/json',
      signal,
    );
    const decoder = new TextDecoder();
    let pending = '';
    let end: ExecEnd | undefined;
    const take = (text: string) => {
      if (text.trim() === '') return;
      let line: ExecLine;
      try {
        line = JSON.parse(text) as ExecLine;
      } catch {
        throw new RemoteApiError(
          `the command stream has a line that is not JSON: ${text.slice(0, 200)}`,
          'BAD_RESPONSE',
        );
      }
      if ('error' in line) throw new RemoteApiError(line.error.message, line.error.code);
      if ('exit_code' in line) end = { exit_code: line.exit_code, signal: line.signal ?? null };
      onLine(line);
    };
    try {
      for await (const chunk of response as AsyncIterable<Uint8Array>) {
        pending += decoder.decode(chunk, { stream: true });
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) take(line);
        if (end) break;
      }
    } catch (error) {
      if (error instanceof RemoteApiError || signal?.aborted) throw error;
      throw this.#unreachable(error);
    }
    take(pending + decoder.decode());
    if (!end) throw new RemoteApiError('the command stream ended without an exit code', 'BAD_RESPONSE');
    return end;
  }

  #file(id: string, path: string): string {
    return `/${encodeURIComponent(id)}/files/${encodePath(path)}`;
  }

  async #json(method: string, path: string, body?: unknown): Promise<unknown> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const response = await this.#request(
      method,
      path,
      payload,
      payload === undefined ? '' : 'application/json',
    );
    const text = (await this.#read(response)).toString('utf8');
    try {
      return JSON.parse(text);
    } catch {
      throw new RemoteApiError(
        `${method} ${path || '/'} answered with something that is not JSON`,
        'BAD_RESPONSE',
      );
    }
  }

  /** The whole body; a connection lost meanwhile is the provider being unreachable. */
  async #read(response: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of response) chunks.push(chunk as Buffer);
    } catch (error) {
      throw this.#unreachable(error);
    }
    return Buffer.concat(chunks);
  }

  #unreachable(error: unknown): RemoteApiError {
    const { code, message } = error as { code?: string; message?: string };
    return new RemoteApiError(`cannot reach ${this.#base}: ${code ?? message}`, 'UNREACHABLE');
  }

  // node:http rather than fetch: the client starts for every command, and fetch's first use costs it
  // 150 ms or more of loading.
  #request(
    method: string,
    path: string,
    body?: string | Uint8Array,
    contentType = '',
    signal?: AbortSignal,
  ): Promise<IncomingMessage> {
    const url = new URL(this.#base + path);
    const https = url.protocol === 'https:';
    this.#agent ??= new (https ? nodeHttps() : nodeHttp()).Agent({ keepAlive: true });
    return new Promise((resolve, reject) => {
      const request = (https ? nodeHttps() : nodeHttp()).request(
        url,
        {
          method,
          agent: this.#agent,
          headers: { ...this.#headers, ...(contentType ? { 'content-type': contentType } : {}) },
          ...(signal ? { signal } : {}),
        },
        (response) => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) {
            resolve(response);
            return;
          }
          this.#read(response).then((text) => reject(this.#refusal(method, path, status, text)), reject);
        },
      );
      request.on('error', (error) => reject(signal?.aborted ? error : this.#unreachable(error)));
      request.end(body);
    });
  }

  #refusal(method: string, path: string, status: number, body: Buffer): RemoteApiError {
    const text = body.toString('utf8');
    let error: { code?: string; message?: string } | undefined;
    try {
      error = (JSON.parse(text) as { error?: { code?: string; message?: string } }).error;
    } catch {
      // Not the protocol's error shape: a proxy's page, say. Its status still says enough.
    }
    return new RemoteApiError(
      `${method} ${path || '/'} answered ${status}: ${error?.message ?? (text.slice(0, 200) || 'no details')}`,
      error?.code ?? `HTTP_${status}`,
      status,
    );
  }
}
