// One error model: every code has one status in `errorStatus`, every code the source can answer is in that
// table, and the README's table of codes says exactly the same (issues #24 and #25: codes do not drift).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codesByStatus, documentedCodes, sourceFiles } from '@keel/testkit/fuzz';
import { describe, expect, test } from 'vitest';
import { errorStatus } from '../../src/errors.ts';
import { startWorkbench } from '../harness.ts';

const root = join(import.meta.dirname, '..', '..');

describe('error codes', () => {
  test('the README documents exactly the table: each code under its one status', () => {
    const rows = documentedCodes(join(root, 'README.md'));
    for (const codes of rows.values()) codes.sort();
    expect(rows).toEqual(codesByStatus(errorStatus));
  });

  test('every code the source answers is in the table', () => {
    const known = new Set(Object.keys(errorStatus));
    const used = new Set<string>();
    for (const file of sourceFiles(join(root, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/new WorkbenchError\(\s*'([A-Z_]+)'/g)) used.add(match[1] as string);
    }
    // What the HTTP layer answers itself (framework refusals, unknown routes, faults). Runners' and
    // sessions' error codes are another space: they describe a turn, not a request.
    for (const file of sourceFiles(join(root, 'src', 'http'))) {
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
