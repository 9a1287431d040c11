import { describe, expect, test } from 'vitest';
import { addressKind, HostPolicy } from '../../../src/tools/web/index.ts';

describe('addressKind', () => {
  test.each([
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['fd00:ec2:0:0:0:0:0:254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['169.254.0.1', 'link-local'],
    ['169.254.255.255', 'link-local'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['::ffff:169.254.3.4', 'link-local'],
    ['127.0.0.1', 'private'],
    ['127.255.0.9', 'private'],
    ['::1', 'private'],
    ['::ffff:127.0.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['10.20.30.40', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['169.255.0.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['fec0::1', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });
});

describe('HostPolicy.check before connecting', () => {
  const refusedBy = (policy: HostPolicy, url: string) => {
    try {
      policy.check(new URL(url));
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };

  test('with the defaults, public hosts pass; private, metadata and link-local addresses do not', () => {
    const policy = new HostPolicy(undefined);
    expect(refusedBy(policy, 'https://example.com/')).toBeUndefined();
    expect(refusedBy(policy, 'http://8.8.8.8/')).toBeUndefined();
    expect(refusedBy(policy, 'http://10.1.2.3:8080/')).toContain(
      '10.1.2.3 is a loopback or private address, refused while web.allow_private_network is false (the default).',
    );
    expect(refusedBy(policy, 'http://[::1]/')).toContain('::1 is a loopback or private address');
    expect(refusedBy(policy, 'http://127.0.0.1:8000/api/')).toContain(
      'To allow it on purpose, set "web": {"allow_private_network": true} in .runtime/config.json, or list ' +
        'the host in web.allowed_hosts.',
    );
    expect(refusedBy(policy, 'http://169.254.169.254/')).toContain('cloud metadata address');
    expect(refusedBy(policy, 'http://169.254.1.1/')).toContain('link-local address');
    expect(refusedBy(policy, 'http://metadata.google.internal/')).toContain('cloud metadata service');
  });

  test('name entries: exact, wildcard (not the apex), internationalised; addresses defer to the lookup', () => {
    const policy = new HostPolicy({ allowed_hosts: ['docs.example.com', '*.github.io', 'bücher.example'] });
    expect(refusedBy(policy, 'https://docs.example.com/a')).toBeUndefined();
    expect(refusedBy(policy, 'https://DOCS.EXAMPLE.COM./a')).toBeUndefined();
    expect(refusedBy(policy, 'https://user.github.io/')).toBeUndefined();
    expect(refusedBy(policy, 'https://a.b.github.io/')).toBeUndefined();
    expect(refusedBy(policy, 'https://xn--bcher-kva.example/')).toBeUndefined();
    expect(refusedBy(policy, 'https://bücher.example/')).toBeUndefined();
    expect(refusedBy(policy, 'https://github.io/')).toContain(
      'github.io is not listed in web.allowed_hosts.',
    );
    expect(refusedBy(policy, 'https://example.com/')).toContain('not listed in web.allowed_hosts');
    expect(refusedBy(policy, 'https://notgithub.io/')).toContain('not listed in web.allowed_hosts');
  });

  test('private addresses can be allowed on purpose, or let in one by one by a named entry', () => {
    const open = new HostPolicy({ allow_private_network: true });
    expect(refusedBy(open, 'http://192.168.0.10/')).toBeUndefined();
    expect(refusedBy(open, 'http://127.0.0.1:3000/')).toBeUndefined();
    expect(refusedBy(open, 'http://169.254.169.254/')).toContain('cloud metadata address');
    const closed = new HostPolicy({ allow_private_network: false });
    expect(refusedBy(closed, 'http://192.168.0.10/')).toContain('web.allow_private_network is false');
    expect(refusedBy(closed, 'https://example.com/')).toBeUndefined();
    const listed = new HostPolicy({ allowed_hosts: ['192.168.0.0/24', 'example.com'] });
    expect(refusedBy(listed, 'http://192.168.0.10/')).toBeUndefined();
    expect(refusedBy(listed, 'http://192.168.1.10/')).toContain('not listed in web.allowed_hosts');
    // `*` admits every public host, but names no private one.
    const everyHost = new HostPolicy({ allowed_hosts: ['*'] });
    expect(refusedBy(everyHost, 'https://example.com/')).toBeUndefined();
    expect(refusedBy(everyHost, 'http://10.0.0.1/')).toContain('10.0.0.1 is a loopback or private address');
  });

  test('another setting shaped like web names itself and its switch in refusals', () => {
    const wording = { setting: 'prd_links', fetcher: 'the workbench', where: 'with PUT /api/settings' };
    const policy = new HostPolicy({ allowed_hosts: ['*'] }, wording);
    expect(refusedBy(policy, 'http://127.0.0.1:8000/api/')).toBe(
      'Refused to fetch http://127.0.0.1:8000/api/: 127.0.0.1 is a loopback or private address, refused while ' +
        'prd_links.allow_private_network is false (the default). To allow it on purpose, set "prd_links": ' +
        '{"allow_private_network": true} with PUT /api/settings, or list the host in prd_links.allowed_hosts.',
    );
    expect(refusedBy(policy, 'http://169.254.169.254/')).toContain('which the workbench never reaches.');
    expect(() => new HostPolicy({ blocked_hosts: ['http://x/'] }, wording)).toThrow(
      'Invalid entry "http://x/" in prd_links.blocked_hosts',
    );
  });

  test('blocked_hosts wins over allowed_hosts', () => {
    const policy = new HostPolicy({
      allowed_hosts: ['*'],
      blocked_hosts: ['*.internal.example', '10.0.0.0/8'],
    });
    expect(refusedBy(policy, 'http://wiki.internal.example/')).toContain('listed in web.blocked_hosts');
    expect(refusedBy(policy, 'http://10.9.9.9/')).toContain('listed in web.blocked_hosts');
    expect(refusedBy(policy, 'http://11.0.0.1/')).toBeUndefined();
  });
});
