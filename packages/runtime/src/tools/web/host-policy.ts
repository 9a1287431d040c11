import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { PermissionDeniedError } from '../../errors/index.ts';
import { addressKind, metadataHostNames } from './address-kind.ts';
import { HostPatterns } from './host-patterns.ts';
import type { WebConfig } from './web-settings.ts';

/**
 * Which hosts webfetch may reach (config `web`). Cloud metadata and link-local addresses are always
 * refused; then `blocked_hosts`; then, when set, `allowed_hosts`; then loopback and private addresses
 * unless `allow_private_network` (default true) is false, though an `allowed_hosts` entry naming one lets
 * it through. Names are checked before connecting and every address they resolve to after the lookup,
 * on the very addresses the connection then uses, so a name that resolves somewhere else next time
 * (DNS rebinding) gains nothing.
 */
export class HostPolicy {
  readonly #allowed: HostPatterns | undefined;
  readonly #blocked: HostPatterns;
  readonly #allowPrivate: boolean;

  /** Throws a ConfigError when an entry of `allowed_hosts` or `blocked_hosts` is malformed. */
  constructor(config: WebConfig | undefined) {
    this.#allowed = config?.allowed_hosts
      ? new HostPatterns(config.allowed_hosts, 'web.allowed_hosts')
      : undefined;
    this.#blocked = new HostPatterns(config?.blocked_hosts ?? [], 'web.blocked_hosts');
    this.#allowPrivate = config?.allow_private_network ?? true;
  }

  /**
   * Checks `url`'s host, throwing PERMISSION_DENIED when it is refused, and returns the DNS lookup to
   * connect with: it refuses the connection when any address the name resolves to is refused.
   */
  check(url: URL): LookupFunction {
    const host = hostOf(url);
    if (isIP(host) !== 0) {
      this.#checkAddress(url, host, host, false);
      return checkedLookup(() => undefined);
    }
    if (metadataHostNames.has(host)) {
      throw refusal(url, `${host} is a cloud metadata service, which webfetch never reaches.`, { host });
    }
    if (this.#blocked.matchesName(host)) {
      throw refusal(url, `${host} is listed in web.blocked_hosts.`, { host });
    }
    const allowedByName = this.#allowed?.matchesName(host) ?? false;
    if (this.#allowed && !allowedByName && !this.#allowed.hasAddresses) {
      throw refusal(url, `${host} is not listed in web.allowed_hosts.`, { host });
    }
    return checkedLookup((addresses) => {
      for (const { address } of addresses) this.#checkAddress(url, host, address, allowedByName);
    });
  }

  #checkAddress(url: URL, host: string, address: string, allowedByName: boolean): void {
    const subject = host === address ? address : `${host} resolves to ${address}, which`;
    const details = { host, address };
    const kind = addressKind(address);
    if (kind === 'metadata') {
      throw refusal(url, `${subject} is a cloud metadata address, which webfetch never reaches.`, details);
    }
    if (kind === 'link-local') {
      throw refusal(url, `${subject} is a link-local address, which webfetch never reaches.`, details);
    }
    if (this.#blocked.matchesAddress(address)) {
      throw refusal(url, `${subject} is listed in web.blocked_hosts.`, details);
    }
    const allowedExplicitly = allowedByName || (this.#allowed?.matchesAddress(address) ?? false);
    if (this.#allowed && !allowedExplicitly) {
      throw refusal(url, `${subject} is not listed in web.allowed_hosts.`, details);
    }
    if (kind === 'private' && !this.#allowPrivate && !allowedExplicitly) {
      throw refusal(
        url,
        `${subject} is a loopback or private address, and web.allow_private_network is false.`,
        details,
      );
    }
  }
}

/** The URL's host as policies compare it: lower case, no IPv6 brackets, no trailing dot. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.+$/, '');
}

/** dns.lookup, with `check` run on every address found before the connection may use any of them. */
function checkedLookup(check: (addresses: LookupAddress[]) => void): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', undefined);
      try {
        check(addresses);
      } catch (refused) {
        return callback(refused as NodeJS.ErrnoException, '', undefined);
      }
      if (options.all) return (callback as AllCallback)(null, addresses);
      const [first] = addresses;
      return callback(null, first?.address ?? '', first?.family);
    });
  };
}

type AllCallback = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;

function refusal(url: URL, reason: string, details: Record<string, unknown>): PermissionDeniedError {
  return new PermissionDeniedError(`Refused to fetch ${url.href}: ${reason}`, { url: url.href, ...details });
}
