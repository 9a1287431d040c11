import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { PermissionDeniedError } from '../../errors/index.ts';
import { addressKind, metadataHostNames } from './address-kind.ts';
import { HostPatterns } from './host-patterns.ts';

/** The host rules of config `web` (or of another setting shaped like it, e.g. the workbench's PRD links). */
export interface HostRules {
  allowed_hosts?: readonly string[] | undefined;
  blocked_hosts?: readonly string[] | undefined;
  allow_private_network?: boolean | undefined;
}

/** How refusals name the setting and the fetcher, so each user of the policy points at its own switch. */
export interface HostPolicyWording {
  /** The setting holding the rules: `web` names `web.allowed_hosts`, `web.allow_private_network`, … */
  setting: string;
  /** What fetches, in "which webfetch never reaches". */
  fetcher: string;
  /** Where the setting is changed, after `set "web": {…}`. */
  where: string;
}

const webWording: HostPolicyWording = {
  setting: 'web',
  fetcher: 'webfetch',
  where: 'in .runtime/config.json',
};

/**
 * Which hosts webfetch may reach (config `web`). Cloud metadata and link-local addresses are always
 * refused; then `blocked_hosts`; then, when set, `allowed_hosts`; then loopback and private addresses
 * unless `allow_private_network` (default false) is true, though an `allowed_hosts` entry naming one (a
 * name, address or range; not `*`) lets it through. Names are checked before connecting and every address
 * they resolve to after the lookup, on the very addresses the connection then uses, so a name that
 * resolves somewhere else next time (DNS rebinding) gains nothing.
 */
export class HostPolicy {
  readonly #allowed: HostPatterns | undefined;
  /** `allowed_hosts` without `*`: the entries that name hosts, and so may name private ones. */
  readonly #named: HostPatterns | undefined;
  readonly #blocked: HostPatterns;
  readonly #allowPrivate: boolean;
  readonly #wording: HostPolicyWording;

  /** Throws a ConfigError when an entry of `allowed_hosts` or `blocked_hosts` is malformed. */
  constructor(rules: HostRules | undefined, wording: HostPolicyWording = webWording) {
    this.#wording = wording;
    const allowed = rules?.allowed_hosts;
    const setting = `${wording.setting}.allowed_hosts`;
    this.#allowed = allowed ? new HostPatterns(allowed, setting) : undefined;
    const named = allowed?.filter((entry) => entry.trim() !== '*');
    this.#named = named ? new HostPatterns(named, setting) : undefined;
    this.#blocked = new HostPatterns(rules?.blocked_hosts ?? [], `${wording.setting}.blocked_hosts`);
    this.#allowPrivate = rules?.allow_private_network ?? false;
  }

  /**
   * Checks `url`'s host, throwing PERMISSION_DENIED when it is refused, and returns the DNS lookup to
   * connect with: it refuses the connection when any address the name resolves to is refused.
   */
  check(url: URL): LookupFunction {
    const host = hostOf(url);
    const { setting, fetcher } = this.#wording;
    if (isIP(host) !== 0) {
      this.#checkAddress(url, host, host, noName);
      return checkedLookup(() => undefined);
    }
    if (metadataHostNames.has(host)) {
      throw refusal(url, `${host} is a cloud metadata service, which ${fetcher} never reaches.`, { host });
    }
    if (this.#blocked.matchesName(host)) {
      throw refusal(url, `${host} is listed in ${setting}.blocked_hosts.`, { host });
    }
    const byName = {
      listed: this.#allowed?.matchesName(host) ?? false,
      named: this.#named?.matchesName(host) ?? false,
    };
    if (this.#allowed && !byName.listed && !this.#allowed.hasAddresses) {
      throw refusal(url, `${host} is not listed in ${setting}.allowed_hosts.`, { host });
    }
    return checkedLookup((addresses) => {
      for (const { address } of addresses) this.#checkAddress(url, host, address, byName);
    });
  }

  /** `byName`: whether an allowed_hosts entry covers the host's name (`listed`), and not as `*` (`named`). */
  #checkAddress(url: URL, host: string, address: string, byName: NameMatch): void {
    const { setting, fetcher, where } = this.#wording;
    const subject = host === address ? address : `${host} resolves to ${address}, which`;
    const details = { host, address };
    const kind = addressKind(address);
    if (kind === 'metadata') {
      throw refusal(url, `${subject} is a cloud metadata address, which ${fetcher} never reaches.`, details);
    }
    if (kind === 'link-local') {
      throw refusal(url, `${subject} is a link-local address, which ${fetcher} never reaches.`, details);
    }
    if (this.#blocked.matchesAddress(address)) {
      throw refusal(url, `${subject} is listed in ${setting}.blocked_hosts.`, details);
    }
    if (this.#allowed && !byName.listed && !this.#allowed.matchesAddress(address)) {
      throw refusal(url, `${subject} is not listed in ${setting}.allowed_hosts.`, details);
    }
    // `*` admits any public host; a private one must be named, or private addresses allowed as a whole.
    const named = byName.named || (this.#named?.matchesAddress(address) ?? false);
    if (kind === 'private' && !this.#allowPrivate && !named) {
      throw refusal(
        url,
        `${subject} is a loopback or private address, refused while ${setting}.allow_private_network is ` +
          `false (the default). To allow it on purpose, set "${setting}": {"allow_private_network": true} ` +
          `${where}, or list the host in ${setting}.allowed_hosts.`,
        { ...details, setting: `${setting}.allow_private_network` },
      );
    }
  }
}

interface NameMatch {
  listed: boolean;
  named: boolean;
}

const noName: NameMatch = { listed: false, named: false };

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
