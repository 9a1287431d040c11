import { BlockList, isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { ConfigError } from '../../errors/index.ts';
import { familyOf } from './address-kind.ts';

/**
 * A list of hosts from config `web.allowed_hosts` or `web.blocked_hosts`. Entries: a host name
 * (`docs.example.com`, exactly that host), `*.example.com` (any host under it, not example.com itself),
 * `*` (every host), an IP address (`10.0.0.5`, `::1`, `[::1]`) or a CIDR range (`10.0.0.0/8`, `fd00::/8`).
 */
export class HostPatterns {
  readonly #names = new Set<string>();
  readonly #suffixes: string[] = [];
  readonly #addresses = new BlockList();
  #any = false;
  #hasAddresses = false;

  /** Throws a ConfigError naming `setting` for an entry that is none of the above. */
  constructor(entries: readonly string[], setting: string) {
    for (const entry of entries) this.#add(entry, setting);
  }

  /** True when a name entry (or `*`) covers `host` (lower case, no trailing dot). */
  matchesName(host: string): boolean {
    if (this.#any || this.#names.has(host)) return true;
    return this.#suffixes.some((suffix) => host.endsWith(suffix));
  }

  /** True when an address or range entry (or `*`) covers `address`. */
  matchesAddress(address: string): boolean {
    return this.#any || this.#addresses.check(address, familyOf(address));
  }

  /** True when some entry is an address or a range (or `*`), so a resolved address may still match. */
  get hasAddresses(): boolean {
    return this.#any || this.#hasAddresses;
  }

  #add(raw: string, setting: string): void {
    const entry = raw.trim().toLowerCase();
    if (entry === '*') {
      this.#any = true;
      return;
    }
    const [base = '', prefix, ...rest] = entry.replace(/^\[(.*)\]$/, '$1').split('/');
    const version = isIP(base);
    if (version !== 0) {
      const family = version === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) {
        this.#addresses.addAddress(base, family);
      } else {
        const bits = Number(prefix);
        const max = version === 4 ? 32 : 128;
        if (rest.length > 0 || !/^\d+$/.test(prefix) || bits > max) throw invalid(raw, setting);
        this.#addresses.addSubnet(base, bits, family);
      }
      this.#hasAddresses = true;
      return;
    }
    const name = entry.replace(/\.+$/, '');
    const wildcard = name.startsWith('*.');
    // Internationalised names as URLs carry them (punycode); '' when the name is not valid.
    const host = domainToASCII(wildcard ? name.slice(2) : name);
    if (!/^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(host)) throw invalid(raw, setting);
    if (wildcard) this.#suffixes.push(`.${host}`);
    else this.#names.add(host);
  }
}

function invalid(entry: string, setting: string): ConfigError {
  return new ConfigError(
    `Invalid entry "${entry}" in ${setting}: use a host name (docs.example.com), *.example.com, *, ` +
      'an IP address (10.0.0.5) or a CIDR range (10.0.0.0/8, fd00::/8).',
    { setting, entry },
  );
}
