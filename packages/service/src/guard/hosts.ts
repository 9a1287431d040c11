import { isIP } from 'node:net';

/** Names that always mean this machine, whatever DNS says. */
const loopbackNames = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback']);

/**
 * The host name of a `Host` header (`localhost:8000`, `[::1]:8000`, `LocalHost.`) as policies compare
 * it: lower case, no brackets, no trailing dot; undefined when it is not a valid authority.
 */
export function hostnameOf(host: string): string | undefined {
  if (!host || /[\s/?#@\\]/.test(host)) return undefined;
  try {
    return new URL(`http://${host}`).hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.+$/, '');
  } catch {
    return undefined;
  }
}

/** An address as sockets report it: IPv4 mapped into IPv6 (`::ffff:127.0.0.1`) back to IPv4. */
export function plainAddress(address: string): string {
  return address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1').toLowerCase();
}

/** Whether `name` (a host name or address, as `hostnameOf` gives it) is this machine's loopback. */
export function isLoopback(name: string): boolean {
  const plain = plainAddress(name);
  if (loopbackNames.has(plain)) return true;
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1';
}

/**
 * Which `Host` headers a local service answers. A DNS-rebinding page reaches the service under a name of
 * the attacker's, so only names that cannot be rebound pass: the loopback names and addresses, the
 * address the connection actually arrived on (a LAN address when the user bound beyond loopback, which
 * is an address, not a name), and whatever the user listed on purpose.
 */
export class HostAllowList {
  readonly #listed: Set<string>;

  constructor(listed: readonly string[] = []) {
    this.#listed = new Set(
      listed.map((entry) => hostnameOf(entry.trim()) ?? entry.trim().toLowerCase()).filter(Boolean),
    );
  }

  allows(hostname: string, localAddress: string | undefined): boolean {
    if (isLoopback(hostname) || this.#listed.has(hostname)) return true;
    return localAddress !== undefined && isIP(hostname) !== 0 && plainAddress(localAddress) === hostname;
  }
}
