// Scores of one matched character. Tuned so that, in order of weight: runs of consecutive characters,
// characters at the start of a word, characters in the file name beat scattered matches in directories.
const matchScore = 16;
const consecutiveBonus = 12;
const afterSlashBonus = 10;
const afterSeparatorBonus = 8;
const camelCaseBonus = 7;
const basenameBonus = 6;
const gapOpenPenalty = 3;
const gapExtendPenalty = 0.5;
// Breaks ties between equally good matches in favour of shorter paths.
const lengthPenalty = 0.1;

const separators = new Set(['-', '_', '.', ' ']);

/**
 * Fuzzy score of `target` (a relative path) for `query`: null when the query's characters do not all
 * appear in order (case-insensitive, whitespace in the query ignored), otherwise a number, higher is
 * better. The best alignment is found by dynamic programming in O(query × target).
 *
 * @example
 * fuzzyScore('pguard', 'src/tools/path-guard.ts') // a number
 * fuzzyScore('xyz', 'src/index.ts') // null
 */
export function fuzzyScore(query: string, target: string): number | null {
  // Compared by code point, one lower-cased character each, so positions line up with the bonuses.
  const chars = Array.from(target);
  const needle = Array.from(query.replace(/\s+/g, ''), lowerChar);
  const hay = chars.map(lowerChar);
  if (needle.length === 0) return 0;
  if (!isSubsequence(needle, hay)) return null;

  const bonus = positionBonuses(chars);
  let previous: number[] = new Array<number>(hay.length).fill(Number.NEGATIVE_INFINITY);
  for (let i = 0; i < needle.length; i++) {
    const current = new Array<number>(hay.length).fill(Number.NEGATIVE_INFINITY);
    // Best of previous[k] + gapExtendPenalty * k over k <= j - 2: lets a gap of any length be priced in O(1).
    let bestBeforeGap = Number.NEGATIVE_INFINITY;
    for (let j = 0; j < hay.length; j++) {
      if (j >= 2) bestBeforeGap = Math.max(bestBeforeGap, previous[j - 2]! + gapExtendPenalty * (j - 2));
      if (hay[j] !== needle[i]) continue;
      const here = matchScore + bonus[j]!;
      if (i === 0) {
        current[j] = here; // characters before the first match cost nothing but length
        continue;
      }
      const afterRun = j >= 1 ? previous[j - 1]! + consecutiveBonus : Number.NEGATIVE_INFINITY;
      const afterGap = bestBeforeGap - gapOpenPenalty - gapExtendPenalty * (j - 1);
      current[j] = here + Math.max(afterRun, afterGap);
    }
    previous = current;
  }
  const best = Math.max(...previous);
  return best === Number.NEGATIVE_INFINITY ? null : best - lengthPenalty * chars.length;
}

function lowerChar(char: string): string {
  const lower = char.toLowerCase();
  return lower.length === char.length ? lower : char;
}

function isSubsequence(needle: string[], hay: string[]): boolean {
  let at = 0;
  for (const char of needle) {
    at = hay.indexOf(char, at);
    if (at === -1) return false;
    at++;
  }
  return true;
}

/** Bonus of a match at each position: word starts, camelCase humps and the file name count more. */
function positionBonuses(target: string[]): number[] {
  const basenameStart = target.lastIndexOf('/') + 1;
  const bonuses: number[] = [];
  for (let j = 0; j < target.length; j++) {
    const char = target[j]!;
    const before = j === 0 ? '/' : target[j - 1]!;
    let bonus = 0;
    if (before === '/') bonus = afterSlashBonus;
    else if (separators.has(before)) bonus = afterSeparatorBonus;
    else if (isLower(before) && isUpper(char)) bonus = camelCaseBonus;
    if (j >= basenameStart) bonus += basenameBonus;
    bonuses.push(bonus);
  }
  return bonuses;
}

function isLower(char: string): boolean {
  return char !== char.toUpperCase() && char === char.toLowerCase();
}

function isUpper(char: string): boolean {
  return char !== char.toLowerCase() && char === char.toUpperCase();
}
