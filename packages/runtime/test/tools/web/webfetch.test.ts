import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import type { ToolContext, WebConfig } from '../../../src/tools/index.ts';
import { contextFor, runTool, tempDir } from '../helpers.ts';
import { page, redirect, startFakeWeb } from './fake-web.ts';

const article = `<!doctype html>
<html><head><title>Release notes &amp; more</title><style>body { color: red }</style>
<script>window.tracking = true;</script></head>
<body>
<header><a href="/">Home</a> Site banner</header>
<nav><a href="/docs">Docs</a><a href="/blog">Blog</a></nav>
<main>
  <h1>Version 2.0</h1>
  <p>The <strong>new</strong> parser is described in <a href="guide/parser.html">the guide</a>.</p>
  <ul><li>faster</li><li>smaller</li></ul>
  <pre><code>npm install example</code></pre>
  <aside>Related posts</aside>
  <form><input name="email"><button>Subscribe</button></form>
</main>
<footer>Copyright Example Inc.</footer>
</body></html>`;

/**
 * The pages of these tests are served from 127.0.0.1, which webfetch refuses by default: a test that means
 * to reach them opts in, as a user would.
 */
const local: WebConfig = { allow_private_network: true };

/** Runs webfetch with config `web` in the context (and the signal given). */
async function fetchPage(url: string, config?: WebConfig, signal?: AbortSignal): Promise<string> {
  await using work = await tempDir();
  const ctx: ToolContext = { ...(await contextFor(work.path, {}, signal)), web: { config } };
  return await runTool(ctx, 'webfetch', { url });
}

function failure(promise: Promise<unknown>): Promise<{ code: string; message: string; details?: object }> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: { code: string; message: string; details?: object }) => error,
  );
}

describe('webfetch: good paths', () => {
  test('an HTML page becomes Markdown of its main content, links absolute', async () => {
    await using web = await startFakeWeb({ '/news/v2': page('text/html; charset=utf-8', article) });
    const result = await fetchPage(`${web.base}/news/v2`, local);
    expect(result).toBe(
      [
        `URL: ${web.base}/news/v2`,
        'Content-Type: text/html',
        'Title: Release notes & more',
        '',
        '# Version 2.0',
        '',
        `The **new** parser is described in [the guide](${web.base}/news/guide/parser.html).`,
        '',
        '-   faster',
        '-   smaller',
        '',
        '```',
        'npm install example',
        '```',
      ].join('\n'),
    );
    expect(result).not.toMatch(/tracking|color: red|Site banner|Docs|Related posts|Subscribe|Copyright/);
  });

  test('without a main element, the articles (or the body) are the content; header and footer go', async () => {
    await using web = await startFakeWeb({
      '/blog': page(
        'text/html',
        '<header>Blog name</header><article><header><h2>First</h2></header><p>One.</p></article>' +
          '<div>Ads</div><article><h2>Second</h2><p>Two.</p><footer>by Ann</footer></article>',
      ),
      '/plain': page(
        'text/html',
        '<header>Top</header><h1>Notes</h1><p>See <a href="https://other.example/x?a=1&amp;b=2">this</a>.</p><footer>Bottom</footer>',
      ),
    });
    expect(await fetchPage(`${web.base}/blog`, local)).toBe(
      `URL: ${web.base}/blog\nContent-Type: text/html\n\n## First\n\nOne.\n\n## Second\n\nTwo.\n\nby Ann`,
    );
    expect(await fetchPage(`${web.base}/plain`, local)).toBe(
      `URL: ${web.base}/plain\nContent-Type: text/html\n\n# Notes\n\nSee [this](https://other.example/x?a=1&b=2).`,
    );
  });

  test('JSON is pretty-printed and plain text returned as it is', async () => {
    await using web = await startFakeWeb({
      '/api/item': page('application/json', '{"id":7,"tags":["a","b"]}'),
      '/api/problem': page('application/problem+json', '{"title":"x"}'),
      '/broken.json': page('application/json', '{"id":'),
      '/notes.txt': page('text/plain; charset=utf-8', 'line one\n  line <two>\n'),
      '/latin1.txt': page('text/plain; charset=iso-8859-1', Buffer.from([0x63, 0x61, 0x66, 0xe9])),
    });
    expect(await fetchPage(`${web.base}/api/item`, local)).toBe(
      `URL: ${web.base}/api/item\nContent-Type: application/json\n\n{\n  "id": 7,\n  "tags": [\n    "a",\n    "b"\n  ]\n}`,
    );
    expect(await fetchPage(`${web.base}/api/problem`, local)).toContain('{\n  "title": "x"\n}');
    expect(await fetchPage(`${web.base}/broken.json`, local)).toMatch(/\n\n\{"id":$/);
    expect(await fetchPage(`${web.base}/notes.txt`, local)).toBe(
      `URL: ${web.base}/notes.txt\nContent-Type: text/plain\n\nline one\n  line <two>\n`,
    );
    expect(await fetchPage(`${web.base}/latin1.txt`, local)).toMatch(/\n\ncafé$/);
  });

  test('a compressed response is decompressed; a page without a content type is judged by its bytes', async () => {
    await using web = await startFakeWeb({
      '/zipped': (_request, response) => {
        response
          .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
          .end(gzipSync('unzipped text'));
      },
      '/untyped': (_request, response) => {
        response.removeHeader('content-type');
        response.end('<!DOCTYPE html><html><body><p>Hi</p></body></html>');
      },
    });
    expect(await fetchPage(`${web.base}/zipped`, local)).toMatch(/\n\nunzipped text$/);
    expect(web.requests[0]?.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(await fetchPage(`${web.base}/untyped`, local)).toBe(
      `URL: ${web.base}/untyped\nContent-Type: (none)\n\nHi`,
    );
  });

  test('redirects are followed up to 5 times and the final URL is reported', async () => {
    await using web = await startFakeWeb({
      '/r1': redirect('/r2', 301),
      '/r2': redirect('/r3', 302),
      '/r3': redirect('/r4', 303),
      '/r4': redirect('/r5', 307),
      '/r5': redirect('/final', 308),
      '/final': page('text/plain', 'arrived'),
    });
    expect(await fetchPage(`${web.base}/r1`, local)).toBe(
      `URL: ${web.base}/final\nContent-Type: text/plain\n\narrived`,
    );
  });

  test('long output is cut at 30 000 characters with a note', async () => {
    await using web = await startFakeWeb({ '/long.txt': page('text/plain', 'x'.repeat(45_000)) });
    const result = await fetchPage(`${web.base}/long.txt`, local);
    expect(result).toMatch(
      /\n\nx{30000}\n\n\(Cut at 30000 of 45000 characters: the rest of the page is not shown\.\)$/,
    );
  });

  test('loopback is reached when private addresses are allowed, or when an allowed_hosts entry names it', async () => {
    await using web = await startFakeWeb({ '/': page('text/plain', 'local') });
    expect(await fetchPage(`http://localhost:${web.port}/`, local)).toMatch(/local$/);
    const onlyLocalhost = { allowed_hosts: ['localhost'] };
    expect(await fetchPage(`http://localhost:${web.port}/`, onlyLocalhost)).toMatch(/local$/);
    const range = { allowed_hosts: ['127.0.0.0/8'] };
    expect(await fetchPage(`http://localhost:${web.port}/`, range)).toMatch(/local$/);
    const everyHostAndLocalhost = { allowed_hosts: ['*', 'localhost'] };
    expect(await fetchPage(`http://localhost:${web.port}/`, everyHostAndLocalhost)).toMatch(/local$/);
  });
});

describe('webfetch: refused URLs and hosts', () => {
  test('a malformed URL or another scheme is INVALID_PARAMS', async () => {
    for (const url of ['not a url', 'example.com/page', '']) {
      expect(await failure(fetchPage(url))).toMatchObject({
        code: 'INVALID_PARAMS',
        message: `Not a valid URL: "${url}". Give an absolute http:// or https:// URL, e.g. https://example.com/page.`,
      });
    }
    for (const [url, scheme] of [
      ['file:///etc/passwd', 'file'],
      ['ftp://ftp.example.com/x', 'ftp'],
      ['javascript:alert(1)', 'javascript'],
      ['data:text/plain,hi', 'data'],
    ]) {
      expect(await failure(fetchPage(url ?? ''))).toMatchObject({
        code: 'INVALID_PARAMS',
        message: expect.stringContaining(`Only http and https URLs can be fetched, not ${scheme}:`),
      });
    }
  });

  test('cloud metadata addresses and names are refused, in every spelling', async () => {
    const cases: [string, string][] = [
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a cloud metadata address'],
      ['http://0xA9FEA9FE/latest/', '169.254.169.254 is a cloud metadata address'],
      ['http://2852039166/', '169.254.169.254 is a cloud metadata address'],
      ['http://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe is a cloud metadata address'],
      ['http://[fd00:ec2::254]/latest/', 'fd00:ec2::254 is a cloud metadata address'],
      ['http://100.100.100.200/', '100.100.100.200 is a cloud metadata address'],
      [
        'http://metadata.google.internal/computeMetadata/v1/',
        'metadata.google.internal is a cloud metadata service',
      ],
      ['http://METADATA.google.internal./', 'metadata.google.internal is a cloud metadata service'],
    ];
    for (const [url, reason] of cases) {
      const error = await failure(fetchPage(url));
      expect(error.code).toBe('PERMISSION_DENIED');
      expect(error.message).toContain(`Refused to fetch`);
      expect(error.message).toContain(`${reason}, which webfetch never reaches.`);
    }
    // Even a configuration that allows everything does not open them.
    const open = { allowed_hosts: ['*', '169.254.0.0/16'] };
    expect(await failure(fetchPage('http://169.254.169.254/', open))).toMatchObject({
      code: 'PERMISSION_DENIED',
    });
  });

  test('link-local addresses are refused', async () => {
    expect(await failure(fetchPage('http://169.254.10.20:8080/status'))).toMatchObject({
      code: 'PERMISSION_DENIED',
      message:
        'Refused to fetch http://169.254.10.20:8080/status: 169.254.10.20 is a link-local address, which webfetch never reaches.',
      details: { host: '169.254.10.20', address: '169.254.10.20' },
    });
    expect(await failure(fetchPage('http://[fe80::1]/'))).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('fe80::1 is a link-local address'),
    });
  });

  test('a host name is judged by the addresses it resolves to, checked on the connection itself', async () => {
    await using web = await startFakeWeb({ '/': page('text/plain', 'local') });
    // The name itself is not listed; what it resolves to is.
    expect(
      await failure(fetchPage(`http://localhost:${web.port}/`, { blocked_hosts: ['127.0.0.0/8'] })),
    ).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: `Refused to fetch http://localhost:${web.port}/: localhost resolves to 127.0.0.1, which is listed in web.blocked_hosts.`,
      details: { host: 'localhost', address: '127.0.0.1' },
    });
    expect(
      await failure(fetchPage(`http://localhost:${web.port}/`, { allow_private_network: false })),
    ).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining(
        'localhost resolves to 127.0.0.1, which is a loopback or private address, refused while web.allow_private_network is false',
      ),
    });
    // Nothing reached the server.
    expect(web.requests).toEqual([]);
  });

  test('blocked_hosts and allowed_hosts match names, wildcards, addresses and ranges', async () => {
    await using web = await startFakeWeb({ '/': page('text/plain', 'local') });
    expect(
      await failure(fetchPage(`http://localhost:${web.port}/`, { blocked_hosts: ['LOCALHOST'] })),
    ).toMatchObject({
      message: expect.stringContaining('localhost is listed in web.blocked_hosts.'),
    });
    expect(
      await failure(fetchPage(`${web.base}/`, { allowed_hosts: ['*.example.com', 'localhost'] })),
    ).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('127.0.0.1 is not listed in web.allowed_hosts.'),
    });
    expect(
      await failure(fetchPage('http://docs.example.org/', { allowed_hosts: ['*.example.com'] })),
    ).toMatchObject({
      message:
        'Refused to fetch http://docs.example.org/: docs.example.org is not listed in web.allowed_hosts.',
    });
    expect(await fetchPage(`${web.base}/`, { allowed_hosts: ['127.0.0.1'] })).toMatch(/local$/);
    expect(await fetchPage(`${web.base}/`, { allowed_hosts: ['[::1]', '127.0.0.0/24'] })).toMatch(/local$/);
  });

  test('a malformed host entry in the configuration is a CONFIG_ERROR naming the setting', async () => {
    const cases: [WebConfig, string, string][] = [
      [{ allowed_hosts: ['10.0.0.0/40'] }, 'web.allowed_hosts', '10.0.0.0/40'],
      [{ blocked_hosts: ['http://evil.example/'] }, 'web.blocked_hosts', 'http://evil.example/'],
      [{ blocked_hosts: ['*.'] }, 'web.blocked_hosts', '*.'],
    ];
    for (const [config, setting, entry] of cases) {
      expect(await failure(fetchPage('http://example.com/', config))).toMatchObject({
        code: 'CONFIG_ERROR',
        message: expect.stringContaining(`Invalid entry "${entry}" in ${setting}`),
      });
    }
  });
});

describe('webfetch: loopback and private addresses are refused by default', () => {
  const howToAllow =
    'To allow it on purpose, set "web": {"allow_private_network": true} in .runtime/config.json, or list ' +
    'the host in web.allowed_hosts.';

  test('127.0.0.1, localhost, [::1], 10.x, 192.168.x and the other private ranges, saying how to allow them', async () => {
    await using web = await startFakeWeb({ '/': page('text/plain', 'local') });
    expect(await failure(fetchPage(`${web.base}/`))).toMatchObject({
      code: 'PERMISSION_DENIED',
      message:
        `Refused to fetch ${web.base}/: 127.0.0.1 is a loopback or private address, refused while ` +
        `web.allow_private_network is false (the default). ${howToAllow}`,
      details: { host: '127.0.0.1', address: '127.0.0.1', setting: 'web.allow_private_network' },
    });
    // A name is judged by what it resolves to: localhost is loopback.
    expect(await failure(fetchPage(`http://localhost:${web.port}/`))).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringMatching(
        /^Refused to fetch http:\/\/localhost:\d+\/: localhost resolves to (127\.0\.0\.1|::1), which is a loopback or private address/,
      ),
      details: { host: 'localhost' },
    });
    for (const [url, address] of [
      [`http://[::1]:${web.port}/`, '::1'],
      [`http://127.1:${web.port}/`, '127.0.0.1'],
      [`http://0.0.0.0:${web.port}/`, '0.0.0.0'],
      [`http://[::ffff:127.0.0.1]:${web.port}/`, '::ffff:7f00:1'],
      ['http://10.0.0.1/admin', '10.0.0.1'],
      ['http://172.16.5.4/', '172.16.5.4'],
      ['http://192.168.1.1/', '192.168.1.1'],
      ['http://100.64.0.1/', '100.64.0.1'],
      ['http://[fd12:3456::1]/', 'fd12:3456::1'],
    ] as const) {
      const error = await failure(fetchPage(url));
      expect(error, url).toMatchObject({
        code: 'PERMISSION_DENIED',
        message: expect.stringContaining(`${address} is a loopback or private address`),
      });
      expect(error.message, url).toContain(howToAllow);
    }
    // Refused before connecting: nothing reached the server.
    expect(web.requests).toEqual([]);
  });

  test('allowed_hosts: ["*"] admits public hosts only; a private one has to be named', async () => {
    await using web = await startFakeWeb({ '/': page('text/plain', 'local') });
    expect(await failure(fetchPage(`${web.base}/`, { allowed_hosts: ['*'] }))).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('127.0.0.1 is a loopback or private address'),
    });
    expect(await fetchPage(`${web.base}/`, { allowed_hosts: ['*', '127.0.0.1'] })).toMatch(/local$/);
  });

  test('a redirect from an allowed host to loopback or a private address is refused before connecting', async () => {
    await using web = await startFakeWeb({
      '/to-loopback': (_request, response) => {
        response.writeHead(302, { location: `http://127.0.0.1:${web.port}/secret` }).end();
      },
      '/to-v6-loopback': (_request, response) => {
        response.writeHead(301, { location: `http://[::1]:${web.port}/secret` }).end();
      },
      '/to-ten': redirect('http://10.0.0.1/admin', 307),
      '/to-router': redirect('http://192.168.1.1/', 308),
      '/secret': page('text/plain', 'the local API'),
    });
    // Every public host, plus localhost by name: the redirect target is neither.
    const config = { allowed_hosts: ['*', 'localhost'] };
    for (const [path, address] of [
      ['/to-loopback', '127.0.0.1'],
      ['/to-v6-loopback', '::1'],
      ['/to-ten', '10.0.0.1'],
      ['/to-router', '192.168.1.1'],
    ] as const) {
      const error = await failure(fetchPage(`http://localhost:${web.port}${path}`, config));
      expect(error, path).toMatchObject({
        code: 'PERMISSION_DENIED',
        message: expect.stringContaining(`${address} is a loopback or private address`),
      });
      expect(error.message, path).toContain(howToAllow);
    }
    expect(web.requests.map((request) => request.path)).toEqual([
      '/to-loopback',
      '/to-v6-loopback',
      '/to-ten',
      '/to-router',
    ]);
    // The same redirect is followed once private addresses are allowed on purpose.
    expect(await fetchPage(`${web.base}/to-loopback`, local)).toMatch(/the local API$/);
  });
});

describe('webfetch: bounds and failures', () => {
  test('more than 5 redirects is a TOOL_ERROR', async () => {
    await using web = await startFakeWeb({
      '/loop': (_request, response, url) => {
        const hop = Number(url.searchParams.get('hop') ?? 0);
        response.writeHead(302, { location: `/loop?hop=${hop + 1}` }).end();
      },
    });
    expect(await failure(fetchPage(`${web.base}/loop`, local))).toMatchObject({
      code: 'TOOL_ERROR',
      message: `Too many redirects: ${web.base}/loop redirected more than 5 times.`,
    });
    expect(web.requests).toHaveLength(6);
  });

  test('a redirect to a refused host or scheme is not followed', async () => {
    await using web = await startFakeWeb({
      '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/iam/security-credentials/'),
      '/to-link-local': redirect('http://[fe80::1]:8080/'),
      '/to-file': redirect('file:///etc/passwd'),
      '/to-blocked': redirect('http://localhost/admin'),
    });
    expect(await failure(fetchPage(`${web.base}/to-metadata`, local))).toMatchObject({
      code: 'PERMISSION_DENIED',
      message:
        'Refused to fetch http://169.254.169.254/latest/meta-data/iam/security-credentials/: 169.254.169.254 is a cloud metadata address, which webfetch never reaches.',
    });
    expect(await failure(fetchPage(`${web.base}/to-link-local`, local))).toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    expect(await failure(fetchPage(`${web.base}/to-file`, local))).toMatchObject({
      code: 'TOOL_ERROR',
      message: `${web.base}/to-file redirected to file:///etc/passwd; only http and https locations are followed.`,
    });
    expect(
      await failure(fetchPage(`${web.base}/to-blocked`, { ...local, blocked_hosts: ['localhost'] })),
    ).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('localhost is listed in web.blocked_hosts'),
    });
  });

  test('a body over the size limit is refused, declared or streamed, compressed or not', async () => {
    const big = Buffer.alloc(6 * 1024 * 1024, 'a');
    await using web = await startFakeWeb({
      '/big': page('text/plain', big),
      '/chunked': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        for (let index = 0; index < 30; index++) response.write('b'.repeat(100));
        response.end();
      },
      '/bomb': (_request, response) => {
        response
          .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
          .end(gzipSync(Buffer.alloc(20_000, 'c')));
      },
    });
    expect(await failure(fetchPage(`${web.base}/big`, local))).toMatchObject({
      code: 'TOOL_ERROR',
      message: `The response from ${web.base}/big is too large: 6.0 MB, over the limit of 5.0 MB (web.max_response_bytes).`,
    });
    const small = { ...local, max_response_bytes: 1000 };
    expect(await failure(fetchPage(`${web.base}/chunked`, small))).toMatchObject({
      code: 'TOOL_ERROR',
      message: `The response from ${web.base}/chunked is too large: more than 1000 bytes, over the limit of 1000 bytes (web.max_response_bytes).`,
    });
    expect(await failure(fetchPage(`${web.base}/bomb`, small))).toMatchObject({
      code: 'TOOL_ERROR',
      message: expect.stringContaining('is too large: more than 1000 bytes'),
    });
  });

  test('a server that does not answer in time is a TIMEOUT', async () => {
    await using web = await startFakeWeb({
      '/silent': () => {},
      '/stalls': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('first part');
      },
    });
    for (const path of ['/silent', '/stalls']) {
      const started = Date.now();
      expect(await failure(fetchPage(`${web.base}${path}`, { ...local, timeout_ms: 300 }))).toMatchObject({
        code: 'TIMEOUT',
        message: `Fetching ${web.base}${path} took longer than 0.3 s (web.timeout_ms) and was stopped.`,
      });
      expect(Date.now() - started).toBeLessThan(5000);
    }
  });

  test("the run's cancellation stops a fetch at once", async () => {
    let arrived: () => void = () => {};
    const reached = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    await using web = await startFakeWeb({ '/slow': () => arrived() });
    const controller = new AbortController();
    const fetching = failure(fetchPage(`${web.base}/slow`, local, controller.signal));
    await reached;
    controller.abort();
    expect(await fetching).toMatchObject({
      code: 'CANCELLED',
      message: `The fetch of ${web.base}/slow was stopped: the run was cancelled.`,
    });
  });

  test('an unsupported content type is refused, naming it', async () => {
    await using web = await startFakeWeb({
      '/logo.png': page('image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0])),
      '/report.pdf': page('application/pdf', '%PDF-1.7'),
      '/blob': (_request, response) => {
        response.removeHeader('content-type');
        response.end(Buffer.from([1, 0, 2, 0]));
      },
    });
    expect(await failure(fetchPage(`${web.base}/logo.png`, local))).toMatchObject({
      code: 'TOOL_ERROR',
      message: `Cannot show ${web.base}/logo.png: its content type is image/png. webfetch reads HTML (as Markdown), JSON and text only.`,
      details: { content_type: 'image/png' },
    });
    expect(await failure(fetchPage(`${web.base}/report.pdf`, local))).toMatchObject({
      message: expect.stringContaining('its content type is application/pdf.'),
    });
    expect(await failure(fetchPage(`${web.base}/blob`, local))).toMatchObject({
      message: expect.stringContaining('it is binary.'),
    });
  });

  test('an HTTP error status and an unreachable server are TOOL_ERRORs saying why', async () => {
    await using web = await startFakeWeb({
      '/gone': page(
        'text/html',
        '<html><head><style>p{}</style></head><body><h1>Gone</h1><p>Moved away.</p></body></html>',
        410,
      ),
    });
    expect(await failure(fetchPage(`${web.base}/gone`, local))).toMatchObject({
      code: 'TOOL_ERROR',
      message: `${web.base}/gone answered HTTP 410 Gone: Gone Moved away.`,
      details: { status: 410 },
    });
    expect(await failure(fetchPage(`${web.base}/missing`, local))).toMatchObject({
      message: `${web.base}/missing answered HTTP 404 Not Found: No page at /missing`,
    });
    const port = web.port;
    await web[Symbol.asyncDispose]();
    expect(await failure(fetchPage(`http://127.0.0.1:${port}/`, local))).toMatchObject({
      code: 'TOOL_ERROR',
      message: `Fetching http://127.0.0.1:${port}/ failed: the connection was refused.`,
    });
    expect(await failure(fetchPage('http://no-such-host.invalid/'))).toMatchObject({
      code: 'TOOL_ERROR',
      message:
        'Fetching http://no-such-host.invalid/ failed: the host no-such-host.invalid could not be resolved.',
    });
  });
});
