import { BlockList, isIP } from 'node:net';

/** What an IP address is, as far as the host policy cares. */
export type AddressKind = 'metadata' | 'link-local' | 'private' | 'public';

// Cloud instance metadata services: they hand out the machine's credentials to anyone who asks, so a page
// the model chose must never reach them. AWS, GCP, Azure, Oracle: 169.254.169.254; AWS over IPv6:
// fd00:ec2::254; Alibaba Cloud: 100.100.100.200. NAT64 forms of the IPv4 ones too.
const metadata = new BlockList();
metadata.addAddress('169.254.169.254', 'ipv4');
metadata.addAddress('100.100.100.200', 'ipv4');
metadata.addAddress('fd00:ec2::254', 'ipv6');
metadata.addAddress('64:ff9b::a9fe:a9fe', 'ipv6');
metadata.addAddress('64:ff9b::6464:64c8', 'ipv6');

/** Host names of metadata services (their addresses are refused after resolution anyway). */
export const metadataHostNames: ReadonlySet<string> = new Set(['metadata.google.internal']);

// Link-local: other machines on the same link (and metadata services); never a web page.
const linkLocal = new BlockList();
linkLocal.addSubnet('169.254.0.0', 16, 'ipv4');
linkLocal.addSubnet('fe80::', 10, 'ipv6');
linkLocal.addSubnet('64:ff9b::a9fe:0', 112, 'ipv6');

// This machine and private networks: refused unless config `web.allow_private_network` is true.
const privateNetwork = new BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], // "this network": 0.0.0.0 reaches this machine on Linux
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  privateNetwork.addSubnet(address, prefix, 'ipv4');
}
privateNetwork.addAddress('::', 'ipv6');
privateNetwork.addAddress('::1', 'ipv6');
privateNetwork.addSubnet('fc00::', 7, 'ipv6'); // unique local

/** The kind of `address` (IPv4 or IPv6, IPv4-mapped IPv6 included); throws on a non-address. */
export function addressKind(address: string): AddressKind {
  const family = familyOf(address);
  if (metadata.check(address, family)) return 'metadata';
  if (linkLocal.check(address, family)) return 'link-local';
  if (privateNetwork.check(address, family)) return 'private';
  return 'public';
}

/** `ipv4` or `ipv6`, as BlockList wants it; throws when `address` is not an IP address. */
export function familyOf(address: string): 'ipv4' | 'ipv6' {
  const version = isIP(address);
  if (version === 0) throw new TypeError(`Not an IP address: ${address}`);
  return version === 4 ? 'ipv4' : 'ipv6';
}
