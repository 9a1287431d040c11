import { randomBytes } from 'node:crypto';

// Crockford base32 in lower case: sorts the same as text and as time.
const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';

// The last id's time and random digits: ids made in the same millisecond count up from it, so that
// "list order by id is time order" holds within a process even for records made back to back.
let lastTime = -1;
let lastRandom: number[] = [];

/**
 * A stable, prefixed, time-sortable id such as `ses_01jd3x…`: 10 characters of milliseconds,
 * then 16 random ones (80 bits). Within one millisecond a process's ids increase.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  let time = '';
  let rest = now;
  for (let i = 0; i < 10; i++) {
    time = alphabet[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  const random = now === lastTime ? increment(lastRandom) : freshRandom();
  lastTime = now;
  lastRandom = random;
  return `${prefix}_${time}${random.map((digit) => alphabet[digit]).join('')}`;
}

function freshRandom(): number[] {
  return [...randomBytes(16)].map((byte) => byte % 32);
}

/** Adds one to the base-32 digits; on the (80-bit, practically unreachable) overflow starts afresh. */
function increment(digits: number[]): number[] {
  const next = [...digits];
  for (let i = next.length - 1; i >= 0; i--) {
    const digit = next[i]!;
    if (digit < 31) {
      next[i] = digit + 1;
      return next;
    }
    next[i] = 0;
  }
  return freshRandom();
}
