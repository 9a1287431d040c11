// One error model for keel-web: every code has one status in the runtime's `httpStatusOf`, every code the
// server and the shared service layer answer is in that table, and the README's table says exactly the
// same (issue #25: codes do not drift).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpStatusOf } from '@keel/runtime';
import { describe, expect, test } from 'vitest';

const packages = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The README's "Errors" table as status → codes (the backticked capitals outside parentheses). */
function documented(): Map<number, string[]> {
  const readme = readFileSync(join(packages, 'server', 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Errors');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const rows = new Map<number, string[]>();
  for (const line of section.split('\n')) {
    const match = /^\|\s*(\d{3})\s*\|(.*)\|\s*$/.exec(line);
    if (!match) continue;
    const cells = (match[2] ?? '').replace(/\([^)]*\)/g, '');
    rows.set(
      Number(match[1]),
      [...cells.matchAll(/`([A-Z][A-Z_]+)`/g)].map((each) => each[1] as string),
    );
  }
  return rows;
}

describe('keel-web error codes', () => {
  test('the README documents exactly the code table: each code under its one status', () => {
    const expected = new Map<number, string[]>();
    for (const [code, status] of Object.entries(httpStatusOf)) {
      expected.set(status, [...(expected.get(status) ?? []), code]);
    }
    const rows = documented();
    expect([...rows.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [status, codes] of expected)
      expect(rows.get(status)?.sort(), String(status)).toEqual(codes.sort());
  });

  test('every code the server and the service layer answer by hand is in the table', () => {
    const known = new Set(Object.keys(httpStatusOf));
    const used = new Set<string>();
    for (const file of [
      ...sources(join(packages, 'server', 'src')),
      ...sources(join(packages, 'service', 'src')),
    ]) {
      const text = readFileSync(file, 'utf8');
      // Error objects written out ({code: 'X', message}) and codes chosen by a condition (`? 'X' : 'Y'`).
      for (const match of text.matchAll(/\bcode:\s*'([A-Z][A-Z_]+)'/g)) used.add(match[1] as string);
      for (const match of text.matchAll(/\bcode = [^;]*?'([A-Z][A-Z_]+)'[^;]*?'([A-Z][A-Z_]+)'/g)) {
        used.add(match[1] as string);
        used.add(match[2] as string);
      }
    }
    expect(used.has('PAYLOAD_TOO_LARGE')).toBe(true);
    expect([...used].filter((code) => !known.has(code))).toEqual([]);
  });
});
