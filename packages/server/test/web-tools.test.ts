// webfetch and websearch through `POST /tool` on a real keel-web server, against real local HTTP servers.
import { describe, expect, test } from 'vitest';
import { page, redirect, startFakeWeb } from '../../runtime/test/tools/web/fake-web.ts';
import { startServer } from './harness.ts';

describe('POST /tool webfetch', () => {
  test('answers the page as Markdown, JSON and text', async () => {
    await using web = await startFakeWeb({
      '/guide': page(
        'text/html',
        '<header>Site</header><main><h2>Guide</h2><p>Step <em>one</em>.</p></main>',
      ),
      '/data': page('application/json', '{"ok":true}'),
      '/moved': redirect('/data'),
    });
    // The pages are on 127.0.0.1, which webfetch reaches only when allowed on purpose.
    await using s = await startServer([], { config: { web: { allow_private_network: true } } });
    const html = await s.api('POST', '/tool', { tool: 'webfetch', params: { url: `${web.base}/guide` } });
    expect(html).toEqual({
      status: 200,
      body: {
        status: 'success',
        result: `URL: ${web.base}/guide\nContent-Type: text/html\n\n## Guide\n\nStep _one_.`,
      },
    });
    const json = await s.api('POST', '/tool', { tool: 'webfetch', params: { url: `${web.base}/moved` } });
    expect(json.body.result).toBe(
      `URL: ${web.base}/data\nContent-Type: application/json\n\n{\n  "ok": true\n}`,
    );
  });

  test('refusals and failures come back in the error shape with the spec statuses', async () => {
    await using web = await startFakeWeb({
      '/logo.png': page('image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47])),
      '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
    });
    await using s = await startServer([], {
      config: { web: { allow_private_network: true, blocked_hosts: ['localhost'], timeout_ms: 5000 } },
    });
    const call = (url: unknown) => s.api('POST', '/tool', { tool: 'webfetch', params: { url } });

    expect(await call('gopher://example.com/')).toMatchObject({
      status: 400,
      body: {
        error: { code: 'INVALID_PARAMS', message: expect.stringContaining('Only http and https URLs') },
      },
    });
    expect(await call('no url at all')).toMatchObject({
      status: 400,
      body: { error: { code: 'INVALID_PARAMS' } },
    });
    expect(await call(42)).toMatchObject({ status: 400, body: { error: { code: 'INVALID_PARAMS' } } });
    expect(await call('http://169.254.169.254/latest/meta-data/')).toMatchObject({
      status: 403,
      body: {
        error: { code: 'PERMISSION_DENIED', message: expect.stringContaining('cloud metadata address') },
      },
    });
    expect(await call('http://[fe80::1]/')).toMatchObject({
      status: 403,
      body: { error: { code: 'PERMISSION_DENIED', message: expect.stringContaining('link-local address') } },
    });
    expect(await call(`${web.base}/to-metadata`)).toMatchObject({
      status: 403,
      body: { error: { code: 'PERMISSION_DENIED' } },
    });
    // The global config's blocked_hosts applies to this server's tool calls.
    expect(await call(`http://localhost:${web.port}/logo.png`)).toMatchObject({
      status: 403,
      body: { error: { code: 'PERMISSION_DENIED', message: expect.stringContaining('web.blocked_hosts') } },
    });
    expect(await call(`${web.base}/logo.png`)).toMatchObject({
      status: 500,
      body: {
        error: { code: 'TOOL_ERROR', message: expect.stringContaining('its content type is image/png') },
      },
    });
  });

  test('refuses loopback by default: 403 saying how to allow it', async () => {
    await using web = await startFakeWeb({ '/': page('text/plain', 'local API') });
    await using s = await startServer([]);
    const answer = await s.api('POST', '/tool', { tool: 'webfetch', params: { url: `${web.base}/` } });
    expect(answer).toMatchObject({
      status: 403,
      body: { error: { code: 'PERMISSION_DENIED', message: expect.stringContaining('loopback or private') } },
    });
    expect(answer.body.error.message).toContain(
      'set "web": {"allow_private_network": true} in .runtime/config.json',
    );
    expect(web.requests).toEqual([]);
  });
});

describe('POST /tool websearch', () => {
  test('without a provider: 400 CONFIG_ERROR naming web.search.provider', async () => {
    await using s = await startServer([]);
    const answer = await s.api('POST', '/tool', { tool: 'websearch', params: { query: 'keel' } });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 'CONFIG_ERROR',
          message: expect.stringContaining('set web.search.provider'),
          details: { setting: 'web.search.provider' },
        },
      },
    });
  });

  test('SearXNG from the configuration', async () => {
    await using searx = await startFakeWeb({
      '/search': page(
        'application/json',
        JSON.stringify({ results: [{ title: 'Keel', url: 'https://keel.dev', content: 'Agent runtime' }] }),
      ),
    });
    await using s = await startServer([], {
      config: { web: { search: { provider: 'searxng', base_url: searx.base } } },
    });
    const answer = await s.api('POST', '/tool', { tool: 'websearch', params: { query: 'keel' } });
    expect(answer).toEqual({
      status: 200,
      body: {
        status: 'success',
        result: 'Results for "keel" (SearXNG):\n\n1. Keel\n   https://keel.dev\n   Agent runtime',
      },
    });
  });

  test('Brave with the key from the environment; without it, a CONFIG_ERROR naming BRAVE_SEARCH_API_KEY', async () => {
    await using brave = await startFakeWeb({
      '/res/v1/web/search': (request, response) => {
        if (request.headers['x-subscription-token'] !== 'server-key') {
          response.writeHead(401, { 'content-type': 'application/json' }).end('{}');
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            web: { results: [{ title: 'Keel', url: 'https://keel.dev', description: 'Runtime' }] },
          }),
        );
      },
      '/broken/web/search': page('application/json', 'not json'),
      '/failing/web/search': page('text/plain', 'down', 503),
    });
    const config = (path: string) => ({
      web: { search: { provider: 'brave', base_url: `${brave.base}${path}` } },
    });
    {
      await using s = await startServer([], {
        config: config('/res/v1'),
        env: { BRAVE_SEARCH_API_KEY: 'server-key' },
      });
      const answer = await s.api('POST', '/tool', {
        tool: 'websearch',
        params: { query: 'keel', max_results: 1 },
      });
      expect(answer).toEqual({
        status: 200,
        body: {
          status: 'success',
          result: 'Results for "keel" (Brave Search):\n\n1. Keel\n   https://keel.dev\n   Runtime',
        },
      });
      expect(brave.requests.at(-1)?.path).toBe('/res/v1/web/search?q=keel&count=1');
    }
    {
      await using s = await startServer([], {
        config: config('/res/v1'),
        env: { BRAVE_SEARCH_API_KEY: undefined },
      });
      expect(await s.api('POST', '/tool', { tool: 'websearch', params: { query: 'keel' } })).toMatchObject({
        status: 400,
        body: { error: { code: 'CONFIG_ERROR', details: { setting: 'BRAVE_SEARCH_API_KEY' } } },
      });
    }
    {
      await using s = await startServer([], {
        config: config('/broken'),
        env: { BRAVE_SEARCH_API_KEY: 'k' },
      });
      expect(await s.api('POST', '/tool', { tool: 'websearch', params: { query: 'keel' } })).toMatchObject({
        status: 500,
        body: { error: { code: 'TOOL_ERROR', message: expect.stringContaining('not JSON') } },
      });
    }
    {
      await using s = await startServer([], {
        config: config('/failing'),
        env: { BRAVE_SEARCH_API_KEY: 'k' },
      });
      expect(await s.api('POST', '/tool', { tool: 'websearch', params: { query: 'keel' } })).toMatchObject({
        status: 500,
        body: {
          error: {
            code: 'TOOL_ERROR',
            message: 'Brave Search answered HTTP 503 Service Unavailable to the search.',
          },
        },
      });
    }
  });
});
