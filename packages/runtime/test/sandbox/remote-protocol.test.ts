// The remote sandbox protocol (docs/remote-sandbox.md) on the wire, against the reference server: what a
// provider must answer, checked with plain fetch rather than through our own client.
import { createHash } from 'node:crypto';
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually, type RemoteSandboxServer, startRemoteSandboxServer } from '@keel/testkit';
import { describe, expect, it } from 'vitest';

const token = 'test-token';
const auth = { authorization: `Bearer ${token}` };

async function call(server: RemoteSandboxServer, method: string, path: string, body?: string, headers = {}) {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { ...auth, ...headers },
    ...(body ? { body } : {}),
  });
}

async function created(server: RemoteSandboxServer, body: object = {}): Promise<string> {
  const response = await call(server, 'POST', '/v1/sandboxes', JSON.stringify(body), {
    'content-type': 'application/json',
  });
  expect(response.status).toBe(201);
  const info = (await response.json()) as { id: string; workdir: string; idle_timeout_s: number };
  expect(info).toMatchObject({ id: expect.stringMatching(/^sbx_/), idle_timeout_s: expect.any(Number) });
  return info.id;
}

/** Reads an NDJSON stream line by line, as a client does while the command still runs. */
function lines(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let pending = '';
  return async (): Promise<Record<string, unknown> | undefined> => {
    while (!pending.includes('\n')) {
      const { done, value } = await reader.read();
      if (done) return undefined;
      pending += decoder.decode(value, { stream: true });
    }
    const cut = pending.indexOf('\n');
    const line = pending.slice(0, cut);
    pending = pending.slice(cut + 1);
    return JSON.parse(line) as Record<string, unknown>;
  };
}

function exec(server: RemoteSandboxServer, id: string, body: object) {
  return call(server, 'POST', `/v1/sandboxes/${id}/exec`, JSON.stringify(body), {
    'content-type': 'application/json',
  });
}

describe('the remote sandbox protocol, on the reference server', () => {
  it('creates a sandbox, writes, lists, reads and deletes files, directories and symlinks', async () => {
    await using server = await startRemoteSandboxServer({ token });
    const id = await created(server, { network: 'none', idle_timeout_s: 60 });
    expect(await (await call(server, 'GET', `/v1/sandboxes/${id}`)).json()).toMatchObject({
      id,
      idle_timeout_s: 60,
    });

    expect((await call(server, 'PUT', `/v1/sandboxes/${id}/files/src/a%20b.txt`, 'hello\n')).status).toBe(
      204,
    );
    expect(
      (await call(server, 'PUT', `/v1/sandboxes/${id}/files/run.sh?executable=true`, '#!/bin/sh\n')).status,
    ).toBe(204);
    expect((await call(server, 'PUT', `/v1/sandboxes/${id}/files/empty?type=directory`)).status).toBe(204);
    expect(
      (await call(server, 'PUT', `/v1/sandboxes/${id}/files/link?type=symlink`, 'src/a b.txt')).status,
    ).toBe(204);

    const listing = (await (await call(server, 'GET', `/v1/sandboxes/${id}/files`)).json()) as {
      entries: unknown[];
    };
    expect(listing.entries).toEqual([
      { path: 'empty', type: 'directory' },
      { path: 'link', type: 'symlink', target: 'src/a b.txt' },
      {
        path: 'run.sh',
        type: 'file',
        size: 10,
        sha256: createHash('sha256').update('#!/bin/sh\n').digest('hex'),
        executable: true,
      },
      { path: 'src', type: 'directory' },
      {
        path: 'src/a b.txt',
        type: 'file',
        size: 6,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        executable: false,
      },
    ]);
    const read = await call(server, 'GET', `/v1/sandboxes/${id}/files/src/a%20b.txt`);
    expect(read.headers.get('content-type')).toBe('application/octet-stream');
    expect(await read.text()).toBe('hello\n');

    expect((await call(server, 'DELETE', `/v1/sandboxes/${id}/files/src`)).status).toBe(204);
    // Deleting what is not there is what was asked: also 204.
    expect((await call(server, 'DELETE', `/v1/sandboxes/${id}/files/src/gone`)).status).toBe(204);
    const after = (await (await call(server, 'GET', `/v1/sandboxes/${id}/files`)).json()) as {
      entries: { path: string }[];
    };
    expect(after.entries.map((entry) => entry.path)).toEqual(['empty', 'link', 'run.sh']);

    expect((await call(server, 'DELETE', `/v1/sandboxes/${id}`)).status).toBe(204);
    const gone = await call(server, 'GET', `/v1/sandboxes/${id}`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({
      error: { code: 'SANDBOX_NOT_FOUND', message: expect.any(String) },
    });
    expect(server.sandboxes()).toEqual([]);
  });

  it("streams a command's output as it comes, then its exit code", async () => {
    await using server = await startRemoteSandboxServer({ token });
    const id = await created(server);
    const response = await exec(server, id, {
      argv: [
        '/bin/sh',
        '-c',
        'echo first; echo oops >&2; while [ ! -e go ]; do sleep 0.02; done; echo second; exit 3',
      ],
      env: { GREETING: 'hi' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    const next = lines(response);
    expect(await next()).toEqual({ exec_id: expect.stringMatching(/^exe_/) });
    const early = [await next(), await next()];
    expect(early).toEqual(
      expect.arrayContaining([
        { stream: 'stdout', data: 'first\n' },
        { stream: 'stderr', data: 'oops\n' },
      ]),
    );
    // Seen while the command still waits: that is streaming. Now let it finish.
    expect((await call(server, 'PUT', `/v1/sandboxes/${id}/files/go`, 'x')).status).toBe(204);
    expect(await next()).toEqual({ stream: 'stdout', data: 'second\n' });
    expect(await next()).toEqual({ exit_code: 3, signal: null });
    expect(await next()).toBeUndefined();

    // Environment, working directory, a program that does not exist.
    await call(server, 'PUT', `/v1/sandboxes/${id}/files/sub?type=directory`);
    const text = await (
      await exec(server, id, {
        argv: ['/bin/sh', '-c', 'echo "$GREETING $(basename "$PWD")"'],
        cwd: 'sub',
        env: { GREETING: 'hi' },
      })
    ).text();
    expect(text).toContain('{"stream":"stdout","data":"hi sub\\n"}');
    const missing = await (await exec(server, id, { argv: ['no-such-program-here'] })).text();
    expect(missing).toContain('command not found');
    expect(missing.trim().split('\n').at(-1)).toBe('{"exit_code":127,"signal":null}');
  });

  it('stops a command on DELETE of its exec, and when the client goes away', async () => {
    await using server = await startRemoteSandboxServer({ token });
    const id = await created(server);
    const response = await exec(server, id, { argv: ['/bin/sh', '-c', 'echo started; sleep 30'] });
    const next = lines(response);
    const { exec_id } = (await next()) as { exec_id: string };
    expect(await next()).toEqual({ stream: 'stdout', data: 'started\n' });
    expect((await call(server, 'DELETE', `/v1/sandboxes/${id}/exec/${exec_id}`)).status).toBe(204);
    expect(await next()).toEqual({ exit_code: null, signal: 'SIGTERM' });
    expect(server.running()).toBe(0);
    const again = await call(server, 'DELETE', `/v1/sandboxes/${id}/exec/${exec_id}`);
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ error: { code: 'EXEC_NOT_FOUND' } });

    const aborted = new AbortController();
    const second = await fetch(`${server.url}/v1/sandboxes/${id}/exec`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ argv: ['/bin/sh', '-c', 'echo started; sleep 30'] }),
      signal: aborted.signal,
    });
    const read = lines(second);
    await read();
    await read();
    expect(server.running()).toBe(1);
    aborted.abort();
    await eventually(() => server.running() === 0, { what: 'the command to stop once its client left' });
  });

  it('refuses a missing or wrong token with 401 in the error shape', async () => {
    await using server = await startRemoteSandboxServer({ token });
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: token }]) {
      const response = await fetch(`${server.url}/v1/sandboxes`, { method: 'POST', headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await response.json()).toEqual({
        error: { code: 'AUTHENTICATION_FAILED', message: expect.stringContaining('Bearer') },
      });
    }
    expect(server.sandboxes()).toEqual([]);
  });

  it('answers bad input with a 4xx in the error shape, never a 500', async () => {
    await using server = await startRemoteSandboxServer({ token, maxFileBytes: 1024 });
    const id = await created(server);
    const { workdir } = server.sandboxes()[0] as { workdir: string };
    await writeFile(join(workdir, 'file'), 'x');
    await symlink('/etc', join(workdir, 'out'));
    const json = { 'content-type': 'application/json' };
    const cases: [string, string, string | undefined, number, string][] = [
      ['POST', '/v1/sandboxes', '{"network":"bridge"}', 400, 'INVALID_PARAMS'],
      ['POST', '/v1/sandboxes', '{"idle_timeout_s":-1}', 400, 'INVALID_PARAMS'],
      ['POST', '/v1/sandboxes', 'not json', 400, 'INVALID_PARAMS'],
      ['POST', '/v1/sandboxes', '{"extra":1}', 400, 'INVALID_PARAMS'],
      ['GET', '/v1/sandboxes/sbx_nope', undefined, 404, 'SANDBOX_NOT_FOUND'],
      ['GET', '/v1/other', undefined, 404, 'NOT_FOUND'],
      ['PATCH', `/v1/sandboxes/${id}`, undefined, 405, 'METHOD_NOT_ALLOWED'],
      ['PUT', `/v1/sandboxes/${id}/files/%2E%2E%2Fescape`, 'x', 400, 'INVALID_PARAMS'],
      ['PUT', `/v1/sandboxes/${id}/files/a//b`, 'x', 400, 'INVALID_PARAMS'],
      ['PUT', `/v1/sandboxes/${id}/files/a%2Fb%00`, 'x', 400, 'INVALID_PARAMS'],
      ['PUT', `/v1/sandboxes/${id}/files/bad%E0%A4%A`, 'x', 400, 'INVALID_PARAMS'],
      ['PUT', `/v1/sandboxes/${id}/files/x?type=fifo`, 'x', 400, 'INVALID_PARAMS'],
      ['PUT', `/v1/sandboxes/${id}/files/x?executable=yes`, 'x', 400, 'INVALID_PARAMS'],
      ['PUT', `/v1/sandboxes/${id}/files/x?type=symlink`, '', 400, 'INVALID_PARAMS'],
      ['PUT', `/v1/sandboxes/${id}/files/big`, 'x'.repeat(2048), 413, 'PAYLOAD_TOO_LARGE'],
      ['PUT', `/v1/sandboxes/${id}/files/out/passwd`, 'x', 409, 'CONFLICT'],
      ['PUT', `/v1/sandboxes/${id}/files/file/inside`, 'x', 409, 'CONFLICT'],
      ['GET', `/v1/sandboxes/${id}/files/out/passwd`, undefined, 409, 'CONFLICT'],
      ['GET', `/v1/sandboxes/${id}/files/missing`, undefined, 404, 'FILE_NOT_FOUND'],
      ['POST', `/v1/sandboxes/${id}/exec`, '{"argv":[]}', 400, 'INVALID_PARAMS'],
      ['POST', `/v1/sandboxes/${id}/exec`, '{"argv":"ls"}', 400, 'INVALID_PARAMS'],
      ['POST', `/v1/sandboxes/${id}/exec`, '{"argv":["ls"],"cwd":"../.."}', 400, 'INVALID_PARAMS'],
      ['POST', `/v1/sandboxes/${id}/exec`, '{"argv":["ls"],"cwd":"out"}', 400, 'INVALID_PARAMS'],
      ['POST', `/v1/sandboxes/${id}/exec`, '{"argv":["ls"],"env":{"A B":"x"}}', 400, 'INVALID_PARAMS'],
    ];
    for (const [method, path, body, status, code] of cases) {
      const response = await call(server, method, path, body, json);
      const answer = (await response.json()) as { error: { code: string; message: string } };
      expect({ method, path, status: response.status, code: answer.error.code }).toEqual({
        method,
        path,
        status,
        code,
      });
      expect(answer.error.message).toEqual(expect.any(String));
    }
    expect(server.running()).toBe(0);
  });

  it('destroys a sandbox left unused past its idle timeout', async () => {
    await using server = await startRemoteSandboxServer({ reapIntervalMs: 50 });
    const response = await fetch(`${server.url}/v1/sandboxes`, {
      method: 'POST',
      body: '{"idle_timeout_s":1}',
    });
    const { id } = (await response.json()) as { id: string };
    expect(server.sandboxes().map((sandbox) => sandbox.id)).toEqual([id]);
    await eventually(() => server.sandboxes().length === 0, {
      timeoutMs: 5000,
      what: 'the idle sandbox to go',
    });
    expect((await fetch(`${server.url}/v1/sandboxes/${id}`)).status).toBe(404);
  });
});
