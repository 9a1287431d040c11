// Network failures: the database is down, restarting, or not there yet. Anything else (a bad URL, a
// wrong password, a missing database) is configuration, which waiting does not fix.
const networkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'EPIPE',
]);

// PostgreSQL: class 08 is a connection exception; 57P01-57P03 a server shutting down or starting up.
const unreachablePgCode = /^(08|57P0[123])/;

/** Whether a store error means the database cannot be reached right now (worth waiting for). */
export function isStoreUnreachable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 6; depth++) {
    const { code, message, details } = cause as { code?: unknown; message?: unknown; details?: unknown };
    if (typeof code === 'string' && (networkCodes.has(code) || unreachablePgCode.test(code))) return true;
    const pgCode = (details as { pg_code?: unknown } | undefined)?.pg_code;
    if (typeof pgCode === 'string' && unreachablePgCode.test(pgCode)) return true;
    if (typeof message === 'string' && /Connection terminated|connect ECONNREFUSED/.test(message))
      return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}
