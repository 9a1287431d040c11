// PRD links go through the runtime's host policy and bounded GET: real HTTP servers on 127.0.0.1, which
// the default settings refuse, as they refuse the workbench's own API and the LAN.
import { describe, expect, test } from 'vitest';
import { page, redirect, startFakeWeb } from '../../../runtime/test/tools/web/fake-web.ts';
import { defaultSettings, type StoredSettings } from '../../src/settings/index.ts';
import { fetchPrdDocuments } from '../../src/tasks/prd-links.ts';

type PrdLinks = StoredSettings['prd_links'];

const howToAllow =
  'To allow it on purpose, set "prd_links": {"allow_private_network": true} with PUT /api/settings, or ' +
  'list the host in prd_links.allowed_hosts.';

describe('PRD links and the host policy', () => {
  test('by default loopback, localhost, [::1] and private addresses are refused, saying how to allow them', async () => {
    await using web = await startFakeWeb({ '/prd.md': page('text/markdown', '# PRD') });
    const links = [
      `${web.base}/prd.md`,
      `http://localhost:${web.port}/prd.md`,
      `http://[::1]:${web.port}/prd.md`,
      'http://10.0.0.1/prd.md',
      'http://192.168.1.1/prd.md',
    ];
    const documents = await fetchPrdDocuments(links, defaultSettings.prd_links);
    expect(documents.map((document) => [document.url, document.ok])).toEqual(
      links.map((url) => [url, false]),
    );
    expect(documents[0]?.text).toBe(
      `Refused to fetch ${web.base}/prd.md: 127.0.0.1 is a loopback or private address, refused while ` +
        `prd_links.allow_private_network is false (the default). ${howToAllow}`,
    );
    for (const document of documents) {
      expect(document.text, document.url).toContain('is a loopback or private address');
      expect(document.text, document.url).toContain(howToAllow);
    }
    expect(documents[1]?.text).toMatch(/localhost resolves to (127\.0\.0\.1|::1)/);
    // Refused before connecting.
    expect(web.requests).toEqual([]);
    // Settings saved before the field existed read as the default.
    expect(await fetchPrdDocuments([`${web.base}/prd.md`], undefined)).toMatchObject([{ ok: false }]);
  });

  test('allowed on purpose: the documents are read, HTML as its text, failures reported', async () => {
    await using web = await startFakeWeb({
      '/prd.md': page('text/markdown', '# PRD\n\nThe greeting must say hi.'),
      '/spec.html': page('text/html', '<h1>Spec</h1><p>Be &amp; stay polite.</p><script>x()</script>'),
      '/logo.png': page('image/png', Buffer.from([0x89, 0x50])),
      '/moved': redirect('/prd.md'),
    });
    const open: PrdLinks = { allow_private_network: true, allowed_hosts: [] };
    const documents = await fetchPrdDocuments(
      [
        `${web.base}/prd.md`,
        `${web.base}/spec.html`,
        `${web.base}/moved`,
        `${web.base}/missing`,
        `${web.base}/logo.png`,
        'ftp://example.com/prd',
      ],
      open,
    );
    expect(documents.map(({ ok, text }) => [ok, text])).toEqual([
      [true, '# PRD\n\nThe greeting must say hi.'],
      [true, 'Spec\nBe & stay polite.'],
      [true, '# PRD\n\nThe greeting must say hi.'],
      [false, 'HTTP 404 Not Found'],
      [false, 'not a text document (image/png)'],
      [false, expect.stringContaining('Only http and https URLs can be fetched, not ftp:')],
    ]);
    expect(web.requests[0]?.headers['user-agent']).toBe('Keel-workbench');
    // Never the metadata service, whatever the settings say.
    const [metadata] = await fetchPrdDocuments(['http://169.254.169.254/latest/meta-data/'], open);
    expect(metadata?.text).toContain(
      '169.254.169.254 is a cloud metadata address, which the workbench never reaches.',
    );
  });

  test('allowed_hosts lets in the private hosts it names, no others; every redirect is checked again', async () => {
    await using web = await startFakeWeb({
      '/prd.md': page('text/markdown', 'local PRD'),
      '/to-loopback': (_request, response) => {
        response.writeHead(302, { location: `http://127.0.0.1:${web.port}/prd.md` }).end();
      },
      '/to-router': redirect('http://192.168.1.1/admin'),
    });
    const byName: PrdLinks = { allow_private_network: false, allowed_hosts: ['localhost'] };
    const documents = await fetchPrdDocuments(
      [
        `http://localhost:${web.port}/prd.md`,
        `http://localhost:${web.port}/to-loopback`,
        `http://localhost:${web.port}/to-router`,
        `${web.base}/prd.md`,
      ],
      byName,
    );
    expect(documents.map((document) => document.ok)).toEqual([true, false, false, false]);
    expect(documents[0]?.text).toBe('local PRD');
    expect(documents[1]?.text).toContain(
      `Refused to fetch http://127.0.0.1:${web.port}/prd.md: 127.0.0.1 is a loopback or private address`,
    );
    expect(documents[2]?.text).toContain(
      'Refused to fetch http://192.168.1.1/admin: 192.168.1.1 is a loopback',
    );
    expect(documents[3]?.text).toContain(howToAllow);
    // The redirects were answered; their targets were never asked.
    expect(web.requests.map((request) => request.path).sort()).toEqual([
      '/prd.md',
      '/to-loopback',
      '/to-router',
    ]);
    const byRange: PrdLinks = { allow_private_network: false, allowed_hosts: ['127.0.0.0/8'] };
    expect(await fetchPrdDocuments([`${web.base}/prd.md`], byRange)).toMatchObject([{ ok: true }]);
  });
});
