// One error model for keel-web: every code has one status in the runtime's `httpStatusOf`, every code the
// server and the shared service layer answer is in that table, and the README's table says exactly the
// same (issue #25: codes do not drift).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpStatusOf } from '@keel/runtime';
import { codesByStatus, documentedCodes, sourceFiles } from '@keel/testkit/fuzz';
import { describe, expect, test } from 'vitest';

const packages = join(import.meta.dirname, '..', '..');

describe('keel-web error codes', () => {
  test('the README documents exactly the code table: each code under its one status', () => {
    const rows = documentedCodes(join(packages, 'server', 'README.md'));
    for (const codes of rows.values()) codes.sort();
    expect(rows).toEqual(codesByStatus(httpStatusOf));
  });

  test('every code the server and the service layer answer by hand is in the table', () => {
    const known = new Set(Object.keys(httpStatusOf));
    const used = new Set<string>();
    for (const file of [
      ...sourceFiles(join(packages, 'server', 'src')),
      ...sourceFiles(join(packages, 'service', 'src')),
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
