import { describe, expect, test } from 'vitest';
import type { ToolContext, WebSettings } from '../../../src/tools/index.ts';
import { contextFor, runTool, tempDir } from '../helpers.ts';
import { type FakeWeb, page, startFakeWeb } from './fake-web.ts';

// SearXNG's documented JSON answer (GET /search?q=…&format=json), trimmed to the fields it always has.
const searxngAnswer = {
  query: 'vitest fake timers',
  number_of_results: 0,
  results: [
    {
      url: 'https://vitest.dev/guide/mocking',
      title: 'Mocking | Guide | Vitest',
      content: 'Vitest provides utility functions to help you out through its vi helper.\n  Fake timers too.',
      engine: 'duckduckgo',
      score: 3.2,
    },
    { url: 'https://vitest.dev/api/vi', title: 'Vi | Vitest', content: null, engine: 'brave', score: 2 },
    { url: 'https://example.com/3', title: 'Third', content: 'three', engine: 'x', score: 1 },
  ],
  answers: [],
  suggestions: [],
};

// Brave Search API's documented answer (GET /res/v1/web/search?q=…): web.results[].title, url, description.
const braveAnswer = {
  type: 'search',
  query: { original: 'node abort signal' },
  web: {
    type: 'search',
    results: [
      {
        title: 'AbortSignal - <strong>Node</strong>.js docs',
        url: 'https://nodejs.org/api/globals.html#class-abortsignal',
        description:
          'The <strong>AbortSignal</strong> is used to notify observers when &quot;abort&quot; is called &amp; more.',
        type: 'search_result',
      },
      {
        title: 'MDN AbortSignal',
        url: 'https://developer.mozilla.org/docs/Web/API/AbortSignal',
        description: 'MDN',
      },
    ],
  },
};

async function search(args: Record<string, unknown>, web?: WebSettings): Promise<string> {
  await using work = await tempDir();
  const ctx: ToolContext = { ...(await contextFor(work.path)), ...(web ? { web } : {}) };
  return await runTool(ctx, 'websearch', args);
}

function failure(promise: Promise<unknown>): Promise<{ code: string; message: string; details?: object }> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: { code: string; message: string; details?: object }) => error,
  );
}

const searxng = (web: FakeWeb, path = ''): WebSettings => ({
  config: { search: { provider: 'searxng', base_url: `${web.base}${path}` } },
});
const brave = (web: FakeWeb, key: string | undefined = 'brave-key-1'): WebSettings => ({
  config: { search: { provider: 'brave', base_url: `${web.base}/res/v1` } },
  braveSearchApiKey: key,
});

describe('websearch with SearXNG', () => {
  test('asks the instance for JSON and lists title, URL and snippet of each result', async () => {
    await using web = await startFakeWeb({
      '/searx/search': page('application/json', JSON.stringify(searxngAnswer)),
    });
    const result = await search({ query: 'vitest fake timers' }, searxng(web, '/searx'));
    expect(result).toBe(
      [
        'Results for "vitest fake timers" (SearXNG):',
        '',
        '1. Mocking | Guide | Vitest',
        '   https://vitest.dev/guide/mocking',
        '   Vitest provides utility functions to help you out through its vi helper. Fake timers too.',
        '',
        '2. Vi | Vitest',
        '   https://vitest.dev/api/vi',
        '',
        '3. Third',
        '   https://example.com/3',
        '   three',
      ].join('\n'),
    );
    expect(web.requests).toMatchObject([
      {
        method: 'GET',
        path: '/searx/search?q=vitest+fake+timers&format=json',
        headers: { accept: 'application/json' },
      },
    ]);
  });

  test('max_results caps the list (default 5); no results says so', async () => {
    const many = {
      results: Array.from({ length: 12 }, (_, index) => ({
        url: `https://e.com/${index}`,
        title: `R${index}`,
        content: '',
      })),
    };
    await using web = await startFakeWeb({
      '/search': (_request, response, url) => {
        const body = url.searchParams.get('q') === 'nothing' ? { results: [] } : many;
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      },
    });
    expect((await search({ query: 'many' }, searxng(web))).match(/^\d+\. /gm)).toHaveLength(5);
    const two = await search({ query: 'many', max_results: 2 }, searxng(web));
    expect(two).toBe(
      'Results for "many" (SearXNG):\n\n1. R0\n   https://e.com/0\n\n2. R1\n   https://e.com/1',
    );
    expect(await search({ query: 'nothing' }, searxng(web))).toBe('No results for "nothing" (SearXNG).');
  });

  test('an instance answering 500, 403, HTML or the wrong JSON is a TOOL_ERROR saying so', async () => {
    await using web = await startFakeWeb({
      '/down/search': page('text/plain', 'boom', 500),
      '/nojson/search': page('text/html', '<h1>Forbidden</h1>', 403),
      '/html/search': page('text/html', '<html><body>results</body></html>'),
      '/odd/search': page('application/json', '{"hits":[]}'),
    });
    expect(await failure(search({ query: 'q' }, searxng(web, '/down')))).toMatchObject({
      code: 'TOOL_ERROR',
      message: 'SearXNG answered HTTP 500 Internal Server Error to the search.',
      details: { status: 500 },
    });
    expect(await failure(search({ query: 'q' }, searxng(web, '/nojson')))).toMatchObject({
      code: 'TOOL_ERROR',
      message:
        'SearXNG answered HTTP 403 Forbidden to the search. SearXNG refuses JSON unless its settings.yml lists it: search.formats: [html, json].',
    });
    expect(await failure(search({ query: 'q' }, searxng(web, '/html')))).toMatchObject({
      code: 'TOOL_ERROR',
      message: `SearXNG answered with something that is not JSON (${web.base}).`,
    });
    expect(await failure(search({ query: 'q' }, searxng(web, '/odd')))).toMatchObject({
      code: 'TOOL_ERROR',
      message: 'SearXNG answered JSON without the list of results it should have.',
    });
  });

  test('credentials in base_url are sent as basic auth and never shown in messages', async () => {
    await using web = await startFakeWeb({ '/search': page('application/json', '{"results":[]}') });
    const withAuth = (base: string): WebSettings => ({
      config: { search: { provider: 'searxng', base_url: base.replace('http://', 'http://me:s3cret@') } },
    });
    expect(await search({ query: 'q' }, withAuth(web.base))).toBe('No results for "q" (SearXNG).');
    expect(web.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from('me:s3cret').toString('base64')}`,
    );
    const closed = web.base;
    await web[Symbol.asyncDispose]();
    const error = await failure(search({ query: 'q' }, withAuth(closed)));
    expect(error).toMatchObject({
      code: 'TOOL_ERROR',
      message: `Fetching ${closed}/search?q=q&format=json failed: the connection was refused.`,
    });
    expect(JSON.stringify(error.details)).not.toContain('s3cret');
  });

  test('a provider that does not answer in time is a TIMEOUT', async () => {
    await using web = await startFakeWeb({ '/search': () => {} });
    const settings = {
      config: { timeout_ms: 200, search: { provider: 'searxng', base_url: web.base } },
    };
    expect(await failure(search({ query: 'q' }, settings))).toMatchObject({ code: 'TIMEOUT' });
  });
});

describe('websearch with the Brave Search API', () => {
  test('sends the key from BRAVE_SEARCH_API_KEY and reads web.results, markup removed', async () => {
    await using web = await startFakeWeb({
      '/res/v1/web/search': page('application/json', JSON.stringify(braveAnswer)),
    });
    const result = await search({ query: 'node abort signal', max_results: 3 }, brave(web));
    expect(result).toBe(
      [
        'Results for "node abort signal" (Brave Search):',
        '',
        '1. AbortSignal - Node.js docs',
        '   https://nodejs.org/api/globals.html#class-abortsignal',
        '   The AbortSignal is used to notify observers when "abort" is called & more.',
        '',
        '2. MDN AbortSignal',
        '   https://developer.mozilla.org/docs/Web/API/AbortSignal',
        '   MDN',
      ].join('\n'),
    );
    expect(web.requests).toMatchObject([
      {
        path: '/res/v1/web/search?q=node+abort+signal&count=3',
        headers: { 'x-subscription-token': 'brave-key-1', accept: 'application/json' },
      },
    ]);
  });

  test('an answer without web results is no results; a refused key and a 500 are TOOL_ERRORs', async () => {
    await using web = await startFakeWeb({
      '/res/v1/web/search': (request, response) => {
        const key = request.headers['x-subscription-token'];
        if (key === 'wrong') {
          response.writeHead(401, { 'content-type': 'application/json' }).end('{"type":"ErrorResponse"}');
        } else if (key === 'broken') {
          response.writeHead(500, { 'content-type': 'text/plain' }).end('oops');
        } else if (key === 'garbled') {
          response.writeHead(200, { 'content-type': 'application/json' }).end('{"web": ');
        } else {
          response.writeHead(200, { 'content-type': 'application/json' }).end('{"type":"search","query":{}}');
        }
      },
    });
    expect(await search({ query: 'zzqx' }, brave(web))).toBe('No results for "zzqx" (Brave Search).');
    expect(await failure(search({ query: 'q' }, brave(web, 'wrong')))).toMatchObject({
      code: 'TOOL_ERROR',
      message: 'Brave Search answered HTTP 401 Unauthorized to the search. Check BRAVE_SEARCH_API_KEY.',
    });
    expect(await failure(search({ query: 'q' }, brave(web, 'broken')))).toMatchObject({
      code: 'TOOL_ERROR',
      message: 'Brave Search answered HTTP 500 Internal Server Error to the search.',
    });
    expect(await failure(search({ query: 'q' }, brave(web, 'garbled')))).toMatchObject({
      code: 'TOOL_ERROR',
      message: expect.stringContaining('Brave Search answered with something that is not JSON'),
    });
  });
});

describe('websearch configuration errors', () => {
  test('no provider configured is a CONFIG_ERROR naming web.search.provider', async () => {
    for (const web of [undefined, {}, { config: {} }, { config: { search: {} } }]) {
      expect(await failure(search({ query: 'q' }, web))).toMatchObject({
        code: 'CONFIG_ERROR',
        message: expect.stringContaining('websearch has no search provider: set web.search.provider'),
        details: { setting: 'web.search.provider' },
      });
    }
  });

  test('an unknown provider is a CONFIG_ERROR listing the known ones', async () => {
    expect(
      await failure(search({ query: 'q' }, { config: { search: { provider: 'google' } } })),
    ).toMatchObject({
      code: 'CONFIG_ERROR',
      message: 'web.search.provider "google" is not a search provider Keel knows: use "searxng" or "brave".',
      details: { setting: 'web.search.provider' },
    });
  });

  test('SearXNG without base_url, Brave without its key, and a bad base_url name what to set', async () => {
    expect(
      await failure(search({ query: 'q' }, { config: { search: { provider: 'searxng' } } })),
    ).toMatchObject({
      code: 'CONFIG_ERROR',
      message: expect.stringContaining('needs web.search.base_url'),
      details: { setting: 'web.search.base_url' },
    });
    expect(
      await failure(
        search({ query: 'q' }, { config: { search: { provider: 'brave' } }, braveSearchApiKey: undefined }),
      ),
    ).toMatchObject({
      code: 'CONFIG_ERROR',
      message: expect.stringContaining('set BRAVE_SEARCH_API_KEY in the environment'),
      details: { setting: 'BRAVE_SEARCH_API_KEY' },
    });
    for (const base_url of ['not a url', 'ftp://search.example']) {
      expect(
        await failure(search({ query: 'q' }, { config: { search: { provider: 'searxng', base_url } } })),
      ).toMatchObject({ code: 'CONFIG_ERROR', details: { setting: 'web.search.base_url' } });
    }
  });

  test('an empty query or a max_results out of range is INVALID_PARAMS', async () => {
    expect(await failure(search({ query: '  ' }))).toMatchObject({ code: 'INVALID_PARAMS' });
    expect(await failure(search({ query: 'q', max_results: 21 }))).toMatchObject({ code: 'INVALID_PARAMS' });
    expect(await failure(search({ query: 'q', max_results: 0 }))).toMatchObject({ code: 'INVALID_PARAMS' });
  });
});
