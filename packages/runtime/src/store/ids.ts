import { randomBytes } from 'node:crypto';

// Crockford base32 in lower case: sorts the same as text and as time.
const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * A stable, prefixed, time-sortable id such as `ses_01jd3x…`: 10 characters of milliseconds,
 * then 16 random ones (80 bits).
 */
export function newId(prefix: string, now: number = Date.now()): string {
  let time = '';
  let rest = now;
  for (let i = 0; i < 10; i++) {
    time = alphabet[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  const bytes = randomBytes(16);
  let random = '';
  for (const byte of bytes) random += alphabet[byte % 32];
  return `${prefix}_${time}${random}`;
}
