import { isLoopback } from './hosts.ts';

export interface BindCheck {
  /** The address the service is asked to listen on (`--host`). */
  host: string;
  /** Whether an API key is configured. */
  hasKey: boolean;
  /** `--insecure-no-auth`: the user accepts an open service beyond loopback. */
  insecureNoAuth: boolean;
  /** The service's name and how to give it a key, for the messages. */
  service: string;
  keyHint: string;
}

/**
 * Whether the service may listen on `host`: loopback always; any other address (a LAN address, `0.0.0.0`,
 * `::`) only with an API key, since anyone who reaches it could otherwise run commands as the user.
 * Returns the refusal to print, a warning to print loudly (open on purpose), or nothing.
 */
export function checkBind(check: BindCheck): { refusal?: string; warning?: string } {
  const host = check.host.replace(/^\[(.*)\]$/, '$1');
  if (isLoopback(host) || check.hasKey) return {};
  if (check.insecureNoAuth) {
    return {
      warning:
        `WARNING: ${check.service} is listening on ${check.host} WITHOUT an API key (--insecure-no-auth). ` +
        'Anyone who can reach this address can run commands and read files as you.',
    };
  }
  return {
    refusal:
      `Refusing to listen on ${check.host} without an API key: anyone who can reach it could run commands ` +
      `and read files as you. Set ${check.keyHint}, listen on 127.0.0.1, or pass --insecure-no-auth to ` +
      'run open on purpose.',
  };
}
