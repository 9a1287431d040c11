import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { startHarness } from '../../harness.ts';
import { page, startFakeWeb } from './fake-web.ts';

describe('webfetch and websearch in an agent run', () => {
  test('the model searches, reads a page, is refused the metadata service, and sees every answer', async () => {
    await using web = await startFakeWeb({
      '/docs/install': page(
        'text/html',
        '<nav>Menu</nav><main><h1>Install</h1><p>Run <code>npm i keel</code>. See <a href="../faq">FAQ</a>.</p></main>',
      ),
      '/search': page(
        'application/json',
        JSON.stringify({
          results: [
            { title: 'Install Keel', url: 'http://127.0.0.1/docs/install', content: 'How to install' },
          ],
        }),
      ),
    });
    await using h = await startHarness([
      { toolCalls: [{ name: 'websearch', arguments: { query: 'install keel', max_results: 3 } }] },
      { toolCalls: [{ name: 'webfetch', arguments: { url: `${web.base}/docs/install` } }] },
      { toolCalls: [{ name: 'webfetch', arguments: { url: 'http://169.254.169.254/latest/meta-data/' } }] },
      { text: 'Install it with npm i keel.' },
    ]);
    await writeFile(
      join(h.runtimeDir, 'config.json'),
      // The pages are on 127.0.0.1, which webfetch reaches only when allowed on purpose.
      JSON.stringify({
        web: { allow_private_network: true, search: { provider: 'searxng', base_url: web.base } },
      }),
    );

    const { events, result, error } = await h.collect({ prompt: 'How do I install Keel?' });
    expect(error).toBeUndefined();
    expect(result?.output).toBe('Install it with npm i keel.');

    const offered = (h.model.chatRequests[0]?.tools ?? []).map((tool) => tool.function?.name);
    expect(offered).toEqual(expect.arrayContaining(['webfetch', 'websearch']));
    const results = events.flatMap((event) => (event.type === 'tool_result' ? [event] : []));
    expect(results.map((event) => event.tool_name)).toEqual(['websearch', 'webfetch', 'webfetch']);
    expect(results[0]?.result).toBe(
      'Results for "install keel" (SearXNG):\n\n1. Install Keel\n   http://127.0.0.1/docs/install\n   How to install',
    );
    expect(results[1]?.result).toBe(
      `URL: ${web.base}/docs/install\nContent-Type: text/html\n\n# Install\n\nRun \`npm i keel\`. See [FAQ](${web.base}/faq).`,
    );
    expect(results[2]?.result).toContain(
      'Refused to fetch http://169.254.169.254/latest/meta-data/: 169.254.169.254 is a cloud metadata address',
    );
    // The model's next request carries each answer; the refused one reached no server.
    expect(JSON.stringify(h.model.chatRequests[2]?.messages)).toContain('# Install');
    expect(JSON.stringify(h.model.chatRequests[3]?.messages)).toContain('cloud metadata address');
    expect(web.requests.map((request) => request.path)).toEqual([
      '/search?q=install+keel&format=json',
      '/docs/install',
    ]);

    const { entries } = await h.runtime.audit.list({ event: 'tool_call' });
    expect(
      entries
        .filter((entry) => entry.tool_name?.startsWith('web'))
        .reverse()
        .map((entry) => [entry.tool_name, entry.success]),
    ).toEqual([
      ['websearch', true],
      ['webfetch', true],
      ['webfetch', false],
    ]);
  });

  test('without a search provider the model is told which setting to make', async () => {
    await using h = await startHarness([
      { toolCalls: [{ name: 'websearch', arguments: { query: 'anything' } }] },
      { text: 'Search is not set up.' },
    ]);
    const { events, result } = await h.collect({ prompt: 'Search the web' });
    expect(result?.output).toBe('Search is not set up.');
    const answer = events.find((event) => event.type === 'tool_result');
    expect(answer).toMatchObject({
      tool_name: 'websearch',
      result: expect.stringContaining('websearch has no search provider: set web.search.provider'),
    });
  });

  test('cancelling the run stops a fetch that is waiting on a slow server', async () => {
    let arrived: () => void = () => {};
    const reached = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    await using web = await startFakeWeb({ '/slow': () => arrived() });
    await using h = await startHarness([
      { toolCalls: [{ name: 'webfetch', arguments: { url: `${web.base}/slow` } }] },
      { text: 'never reached' },
    ]);
    await writeFile(
      join(h.runtimeDir, 'config.json'),
      JSON.stringify({ web: { allow_private_network: true } }),
    );
    const controller = new AbortController();
    const running = h.collect({ prompt: 'Read the slow page' }, controller.signal);
    await reached;
    controller.abort();
    const { types, error } = await running;
    expect(types.at(-1)).toBe('cancelled');
    expect(error).toMatchObject({ code: 'CANCELLED' });
    expect(h.model.chatRequests).toHaveLength(1);
  });
});
