import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readVersion } from '../../../src/runners/cli/find-binary.ts';
import { tempDir } from '../../harness.ts';

/** A program that says its version and counts how often it was started. */
function countingProgram(dir: string, version: string): { path: string; starts: () => number } {
  const path = join(dir, 'agent');
  const count = join(dir, 'starts');
  writeFileSync(count, '');
  writeFileSync(path, `#!/bin/sh\necho x >> '${count}'\necho 'agent ${version}'\n`);
  chmodSync(path, 0o755);
  return { path, starts: () => readFileSync(count, 'utf8').split('\n').filter(Boolean).length };
}

describe('readVersion', () => {
  test('a program is started once for its version, however often and however many at once ask', async () => {
    const program = countingProgram(tempDir('version'), '1.2.3');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => readVersion(program.path, process.env)),
    );
    expect(answers).toEqual(Array(5).fill({ version: '1.2.3' }));
    expect(await readVersion(program.path, process.env)).toEqual({ version: '1.2.3' });
    expect(program.starts()).toBe(1);
  });

  test('a replaced program is asked again', async () => {
    const dir = tempDir('version');
    const program = countingProgram(dir, '1.2.3');
    expect(await readVersion(program.path, process.env)).toEqual({ version: '1.2.3' });
    countingProgram(dir, '2.0.0-beta.1');
    expect(await readVersion(program.path, process.env)).toEqual({ version: '2.0.0-beta.1' });
  });

  test('a failure is not kept: the next ask starts the program again', async () => {
    const dir = tempDir('version');
    const count = join(dir, 'starts');
    const path = join(dir, 'agent');
    writeFileSync(path, `#!/bin/sh\necho x >> '${count}'\necho broken >&2\nexit 3\n`);
    chmodSync(path, 0o755);
    expect(await readVersion(path, process.env)).toEqual({ reason: expect.stringContaining('broken') });
    expect(await readVersion(path, process.env)).toEqual({ reason: expect.stringContaining('broken') });
    expect(readFileSync(count, 'utf8')).toBe('x\nx\n');
  });
});
