// The console's side of @keel/web-client (`src/console/api/keel-web.ts`), against a real keel-web: what the
// forms and the transcript get when keel-web refuses, a 401, an answer no page understands, and a run
// followed to its end. (The stream's framing and reconnection: web-client's sse and follow tests.)
import type { RunEventEntry } from '@keel/web-client';
import { describe, expect, test } from 'vitest';
import { startServer } from '../../server/test/harness.ts';
import { onUnauthorized } from '../src/api/auth.ts';
import { errorWords } from '../src/api/error-words.ts';
import { ApiError } from '../src/api/errors.ts';
import { authorizedFetch } from '../src/api/request.ts';
import { consoleClient } from '../src/console/api/keel-web.ts';
import { foldRunEvents, toolCatalogue } from '../src/console/api/run-transcript.ts';
import { fieldOfError } from '../src/console/field-error.ts';

/** What a call ended with: its failure (the test fails if it succeeds). */
async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    (answer) => expect.fail(`expected a failure, got ${JSON.stringify(answer)}`),
    (error: unknown) => error,
  );
}

const runFields = ['prompt', 'workdir', 'model', 'max_tokens', 'max_cost_usd', 'max_steps'];

describe("the console's client of keel-web", () => {
  test("a refusal is the kit's ApiError with the spec's code, message and details: the form marks its field", async () => {
    await using server = await startServer([]);
    const keel = consoleClient(server.base);

    // The runtime's own check of a run request: `details.problems`.
    const budget = await failure(
      keel.runs.start({ prompt: 'x', workdir: server.repo.path, max_tokens: 'abc' as unknown as number }),
    );
    expect(budget).toBeInstanceOf(ApiError);
    expect(budget).toMatchObject({ status: 400, code: 'INVALID_PARAMS' });
    expect((budget as ApiError).message).toContain('max_tokens');
    expect(fieldOfError(budget as ApiError, runFields)).toBe('max_tokens');

    // A field named by `details.field`.
    const workdir = await failure(keel.runs.start({ prompt: 'x', workdir: '/nope/x' }));
    expect(workdir).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'workdir' } });
    expect(fieldOfError(workdir as ApiError, runFields)).toBe('workdir');

    // The request validation's `details.issues` (`body.name`), in the kit's words.
    const name = (await failure(keel.projects.create({ name: '', workdir: server.repo.path }))) as ApiError;
    expect(name).toBeInstanceOf(ApiError);
    expect(name.fields()).toEqual(['name']);
    expect(fieldOfError(name, ['name', 'workdir', 'description'])).toBe('name');
    expect(errorWords(name)).toMatch(/^Name /);

    // An unknown run ends the transcript's follow at once with its 404 (not retried for ever).
    expect(await failure(keel.runs.follow('run_nope'))).toMatchObject({
      status: 404,
      code: 'RUN_NOT_FOUND',
    });
  });

  test('a 401 opens the key prompt; a proxy page, a drifted answer and no server are ApiErrors too', async () => {
    await using server = await startServer([], { apiKey: 'the-key' });
    let prompted = 0;
    const stop = onUnauthorized(() => {
      prompted += 1;
    });
    try {
      const refused = await failure(consoleClient(server.base).info());
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({ status: 401, code: 'AUTHENTICATION_FAILED' });
      expect(prompted).toBe(1);
    } finally {
      stop();
    }

    // What a server of this version cannot answer: a proxy in front of it, or a field of another shape.
    const between = consoleClient(server.base, async (url, init) => {
      if (url.endsWith('/health'))
        return new Response('<html>down</html>', { status: 502, statusText: 'Bad Gateway' });
      if (url.endsWith('/metrics')) return Response.json({ total_runs: 'many' });
      return authorizedFetch(url, init);
    });
    expect(await failure(between.health())).toMatchObject({
      status: 502,
      code: 'HTTP_502',
      message: 'The service answered 502 Bad Gateway.',
    });
    const drifted = await failure(between.metrics());
    expect(drifted).toBeInstanceOf(ApiError);
    expect(drifted).toMatchObject({ code: 'UNEXPECTED_ANSWER', details: { route: 'GET /metrics' } });

    // Port 1: nothing listens.
    expect(await failure(consoleClient('http://127.0.0.1:1').health())).toMatchObject({
      code: 'NETWORK_ERROR',
    });
    // The caller's own abort stays an abort, for it to recognise.
    const abort = await failure(
      consoleClient(server.base).runs.follow('run_x', { signal: AbortSignal.abort() }),
    );
    expect(abort).not.toBeInstanceOf(ApiError);
    expect((abort as Error).name).toBe('AbortError');
  });

  test("a run followed through the console's client folds into its transcript, each event once", async () => {
    await using server = await startServer(
      [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] },
        { when: { lastRole: 'tool' }, text: 'Read it.' },
      ],
      { files: { 'README.md': '# Hello\n' } },
    );
    const keel = consoleClient(server.base);
    const started = await keel.runs.start({ prompt: 'read the readme', workdir: server.repo.path });
    const entries: RunEventEntry[] = [];
    let opened = 0;
    const ended = await keel.runs.follow(started.id, {
      signal: AbortSignal.timeout(30_000),
      onOpen: () => {
        opened += 1;
      },
      onEvent: (entry) => entries.push(entry),
    });
    expect(ended).toMatchObject({ id: started.id, status: 'succeeded', last_seq: entries.length });
    expect(opened).toBe(1);
    expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, index) => index + 1));

    const catalogue = toolCatalogue((await keel.info()).tools);
    const items = foldRunEvents(entries, catalogue, false);
    expect(items.map((item) => item.type)).toEqual(['tool', 'assistant', 'done']);
    expect(items[0]).toMatchObject({
      name: 'read_file',
      kind: 'file_read',
      path: 'README.md',
      result: { ok: true },
    });
    expect(items[1]).toMatchObject({ content: 'Read it.', streaming: false });
  });
});
