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

  test('with the defaults, public and private hosts pass and metadata and link-local do not', () => {
    const policy = new HostPolicy(undefined);
    expect(refusedBy(policy, 'https://example.com/')).toBeUndefined();
    expect(refusedBy(policy, 'http://10.1.2.3:8080/')).toBeUndefined();
    expect(refusedBy(policy, 'http://[::1]/')).toBeUndefined();
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

  test('private addresses can be turned off, and listed ones let back in', () => {
    const policy = new HostPolicy({ allow_private_network: false });
    expect(refusedBy(policy, 'http://192.168.0.10/')).toContain('web.allow_private_network is false');
    expect(refusedBy(policy, 'http://127.0.0.1:3000/')).toContain('web.allow_private_network is false');
    expect(refusedBy(policy, 'https://example.com/')).toBeUndefined();
    const listed = new HostPolicy({
      allow_private_network: false,
      allowed_hosts: ['192.168.0.0/24', 'example.com'],
    });
    expect(refusedBy(listed, 'http://192.168.0.10/')).toBeUndefined();
    expect(refusedBy(listed, 'http://192.168.1.10/')).toContain('not listed in web.allowed_hosts');
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
