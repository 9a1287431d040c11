// One error model: every code has one status in `errorStatus`, every code the source can answer is in that
// table, and the README's table of codes says exactly the same (issues #24 and #25: codes do not drift).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { errorStatus } from '../../src/errors.ts';
import { startWorkbench } from '../harness.ts';

const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The README's "Errors" table as status → codes. */
function documented(): Map<number, string[]> {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Errors'), readme.indexOf('## Endpoints'));
  const rows = new Map<number, string[]>();
  for (const line of section.split('\n')) {
    const match = /^\|\s*(\d{3})\s*\|(.*)\|\s*$/.exec(line);
    if (!match) continue;
    // The codes are the backticked words in capitals that are not inside a parenthesis's details.
    const cells = (match[2] ?? '').replace(/\([^)]*\)/g, '');
    rows.set(
      Number(match[1]),
      [...cells.matchAll(/`([A-Z][A-Z_]+)`/g)].map((each) => each[1] as string),
    );
  }
  return rows;
}

describe('error codes', () => {
  test('the README documents exactly the table: each code under its one status', () => {
    const expected = new Map<number, string[]>();
    for (const [code, status] of Object.entries(errorStatus)) {
      expected.set(status, [...(expected.get(status) ?? []), code]);
    }
    const rows = documented();
    expect([...rows.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [status, codes] of expected)
      expect(rows.get(status)?.sort(), String(status)).toEqual(codes.sort());
  });

  test('every code the source answers is in the table', () => {
    const known = new Set(Object.keys(errorStatus));
    const used = new Set<string>();
    for (const file of sources(join(root, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/new WorkbenchError\(\s*'([A-Z_]+)'/g)) used.add(match[1] as string);
    }
    // What the HTTP layer answers itself (framework refusals, unknown routes, faults). Runners' and
    // sessions' error codes are another space: they describe a turn, not a request.
    for (const file of sources(join(root, 'src', 'http'))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bcode: '([A-Z][A-Z_]+)'/g)) used.add(match[1] as string);
    }
    expect(used.size).toBeGreaterThan(40);
    expect([...used].filter((code) => !known.has(code))).toEqual([]);
  });

  test('a body over the limit is 413 PAYLOAD_TOO_LARGE, in the error shape', async () => {
    await using wb = await startWorkbench([], { workbench: { bodyLimit: 1024 } });
    const answer = await wb.api('POST', '/api/projects', { name: 'x'.repeat(4096), repositories: [] });
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
  });
});
