// The grep tool with ripgrep ruling files out, against the walker alone: on the same trees, for the same
// arguments, both must answer exactly the same text (or the same error). A wrapper script stands in for
// `rg` so each test can also prove ripgrep really ran.
import { execFileSync } from 'node:child_process';
import { chmod, open, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGrepTool } from '../../../src/tools/search/index.ts';
import { requiredLiterals } from '../../../src/tools/search/required-literals.ts';
import { ripgrepNonMatches } from '../../../src/tools/search/ripgrep.ts';
import type { ToolContext } from '../../../src/tools/tool.ts';
import { contextFor, type TempDir, tempDir, writeFiles } from '../helpers.ts';

const hasRipgrep = (() => {
  try {
    return execFileSync('rg', ['--version'], { encoding: 'utf8' }).startsWith('ripgrep ');
  } catch {
    return false;
  }
})();

/** An `rg` that logs each call to `log` and runs the real one. */
async function loggingRipgrep(dir: string): Promise<{ path: string; calls(): Promise<number> }> {
  const path = join(dir, 'rg-logged');
  const log = join(dir, 'rg.log');
  await writeFile(path, `#!/bin/sh\necho call >> '${log}'\nexec rg "$@"\n`);
  await chmod(path, 0o755);
  return {
    path,
    calls: async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean).length,
  };
}

type GrepArgs = { pattern: string; path?: string; include?: string };

/** Both tools' answers for `args`: the text, or the error's code and message. */
async function answers(ctx: ToolContext, rg: string, args: GrepArgs): Promise<[string, string]> {
  const run = (ripgrep: string | null) =>
    createGrepTool({ ripgrep })
      .execute(ctx, { path: '.', ...args })
      .catch((error: { code?: string; message?: string }) => `ERROR ${error.code}: ${error.message}`);
  return [await run(null), await run(rg)];
}

/** A tree with one of everything the search tools treat specially. */
async function buildTree(work: TempDir, outside: TempDir): Promise<void> {
  await writeFiles(work.path, {
    '.gitignore': 'dist/\n*.log\n!keep.log\n/secret.txt\nsub/generated/\n',
    'src/a.ts': 'const needle = 1;\nexport function findNeedle() {}\nNEEDLE in capitals\n',
    'src/b.js': 'function bar() { return "needle"; }\nneedy\n',
    'src/deep/c.tsx': 'héllo needle\nÉCOLE école\n',
    'dist/out.js': 'needle in dist\n',
    'app.log': 'needle in a log\n',
    'keep.log': 'needle in a kept log\n',
    'secret.txt': 'needle secret\n',
    'docs/secret.txt': 'needle in docs\n',
    'sub/.gitignore': '*.txt\n!wanted.txt\n',
    'sub/wanted.txt': 'needle wanted\n',
    'sub/unwanted.txt': 'needle unwanted\n',
    'sub/generated/g.ts': 'needle generated\n',
    'sub/code.ts': 'x = needle;\r\ny = needle\r\n',
    '.env': 'NEEDLE_TOKEN=1\n',
    '.config/settings.json': '{"needle": true}\n',
    'node_modules/pkg/index.js': 'needle\n',
    'bin.dat': new Uint8Array([110, 101, 101, 100, 108, 101, 0, 1, 2]),
    // A NUL beyond the 8 KB the binary check looks at: the file is text, and its late match counts.
    'late-nul.txt': `${'a'.repeat(9000)}\u0000\nneedle after the nul\n`,
    'latin1.txt': new Uint8Array([...Buffer.from('caf'), 0xe9, ...Buffer.from(' needle\n')]),
    'utf16.txt': new Uint8Array([0xff, 0xfe, ...Buffer.from('needle', 'utf16le')]),
    'many.txt': Array.from({ length: 250 }, (_, i) => `needle ${i}`).join('\n'),
    'numbers.txt': 'abc 123\nfoo42\n',
  });
  for (const [name, content] of [
    ['big-match.txt', 'needle\n'],
    ['big-other.txt', 'nothing\n'],
  ] as const) {
    const big = await open(join(work.path, name), 'w');
    await big.write(content);
    await big.truncate(2 * 1024 * 1024);
    await big.close();
  }
  await writeFiles(outside.path, { 'o.txt': 'needle outside\n' });
  await symlink(join(outside.path, 'o.txt'), join(work.path, 'out-link.txt'));
  await symlink(outside.path, join(work.path, 'out-dir'));
  await symlink(join(work.path, 'src/a.ts'), join(work.path, 'in-link.ts'));
}

const cases: GrepArgs[] = [
  { pattern: 'needle' },
  { pattern: 'NEEDLE' },
  { pattern: '(?i)needle' },
  { pattern: '(?i)NeEdLe' },
  { pattern: 'need(le|y)' },
  { pattern: '(foo|needle)' },
  { pattern: 'ne+dle' },
  { pattern: 'n.edle' },
  { pattern: '\\bneedle\\b' },
  { pattern: '^needle \\d+$' },
  { pattern: 'needle|\\w+42' },
  { pattern: '[n]eedle' },
  { pattern: 'nee(?=dle)' },
  { pattern: '(?<=x = )needle' },
  { pattern: 'e{2}dle' },
  { pattern: 'héllo' },
  { pattern: '(?i)école' },
  { pattern: '\\d+' },
  { pattern: 'caf.' },
  { pattern: 'after the nul' },
  { pattern: 'needle', path: 'sub' },
  { pattern: 'needle', path: 'dist' },
  { pattern: 'needle', path: 'sub/generated' },
  { pattern: 'needle', path: 'src/a.ts' },
  { pattern: 'needle', include: '*.ts' },
  { pattern: 'needle', include: 'src/**/*.{ts,tsx}' },
  { pattern: 'needle', include: '*.py' },
  { pattern: 'no such text anywhere' },
  { pattern: 'foo(' },
  { pattern: '*bad' },
];

describe.runIf(hasRipgrep)('grep with ripgrep and without', () => {
  it('answers exactly as the walker alone on every case', async () => {
    await using work = await tempDir();
    await using outside = await tempDir();
    await using bin = await tempDir();
    await buildTree(work, outside);
    const rg = await loggingRipgrep(bin.path);
    const ctx = await contextFor(work.path, { strictReadBoundary: false });
    for (const args of cases) {
      const [walker, ripgrep] = await answers(ctx, rg.path, args);
      expect({ args, answer: ripgrep }).toEqual({ args, answer: walker });
    }
    // ripgrep ran for every case with literal text to look for in a directory, and for no other.
    const withLiterals = cases.filter((args) => {
      const valid = !args.pattern.startsWith('foo(') && !args.pattern.startsWith('*');
      const source = args.pattern.replace(/^\(\?i\)/, '');
      return valid && args.path !== 'src/a.ts' && requiredLiterals(source) !== undefined;
    });
    expect(withLiterals.length).toBeGreaterThan(20);
    expect(await rg.calls()).toBe(withLiterals.length);
  });

  it('answers the spot checks the walker answers', async () => {
    await using work = await tempDir();
    await using outside = await tempDir();
    await buildTree(work, outside);
    const ctx = await contextFor(work.path, { strictReadBoundary: false });
    const grep = createGrepTool({ ripgrep: 'rg' });
    const found = await grep.execute(ctx, { pattern: 'needle', path: '.', include: '*.{ts,json,txt,log}' });
    expect(found.split('\n')).toEqual([
      '.config/settings.json:1: {"needle": true}',
      'docs/secret.txt:1: needle in docs',
      'in-link.ts:1: const needle = 1;',
      'keep.log:1: needle in a kept log',
      'late-nul.txt:2: needle after the nul',
      'latin1.txt:1: caf\uFFFD needle',
      ...Array.from({ length: 194 }, (_, i) => `many.txt:${i + 1}: needle ${i}`),
      '',
      '(Stopped at 200 matches. Narrow the pattern, path or include to see the rest.)',
      '(2 files over 1 MB were not searched.)',
    ]);
    expect(await grep.execute(ctx, { pattern: 'needle', path: 'sub' })).toBe(
      'sub/code.ts:1: x = needle;\nsub/code.ts:2: y = needle\nsub/wanted.txt:1: needle wanted',
    );
  });

  it('names the files ripgrep searched to the end without a literal, and only those', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, {
      '.gitignore': 'ignored.txt\n',
      'hit.txt': 'a needle here',
      'miss.txt': 'nothing',
      '.hidden': 'nothing',
      'ignored.txt': 'nothing',
      'sub/NEEDLE.md': 'NEEDLE',
      'after-nul.bin': new Uint8Array([0, 1, 2, ...Buffer.from(' needle')]),
      'utf16.txt': new Uint8Array([0xff, 0xfe, ...Buffer.from('needle', 'utf16le')]),
    });
    const big = await open(join(work.path, 'big.txt'), 'w');
    await big.truncate(2 * 1024 * 1024);
    await big.close();
    await symlink(join(work.path, 'miss.txt'), join(work.path, 'link.txt'));
    const ask = (ignoreCase: boolean) =>
      ripgrepNonMatches({
        rg: 'rg',
        root: work.path,
        literals: ['needle'],
        ignoreCase,
        maxFileBytes: 1024 * 1024,
        signal: new AbortController().signal,
      });
    const named = async (ignoreCase: boolean) =>
      [...((await ask(ignoreCase)) ?? [])].map((path) => path.slice(work.path.length + 1)).sort();
    // Not named: matches (after a NUL too), ignored, large and linked files; UTF-16 is read as raw bytes.
    expect(await named(false)).toEqual(['.gitignore', '.hidden', 'miss.txt', 'sub/NEEDLE.md', 'utf16.txt']);
    expect(await named(true)).toEqual(['.gitignore', '.hidden', 'miss.txt', 'utf16.txt']);
  });

  it('falls back to the walker when the ripgrep program is missing or fails', async () => {
    await using work = await tempDir();
    await using outside = await tempDir();
    await using bin = await tempDir();
    await buildTree(work, outside);
    const failing = join(bin.path, 'rg-failing');
    await writeFile(failing, '#!/bin/sh\necho "not ripgrep" >&2\nexit 3\n');
    await chmod(failing, 0o755);
    const lying = join(bin.path, 'rg-cut');
    // Output cut off mid-line, as from a crash: the partial line is ignored, every other file still read.
    await writeFile(lying, "#!/bin/sh\nprintf './src/a.ts'\n");
    await chmod(lying, 0o755);
    // Some file could not be read (status 2): the files it did name were searched to the end all the same.
    const partial = join(bin.path, 'rg-partial');
    await writeFile(partial, '#!/bin/sh\nrg "$@"\nexit 2\n');
    await chmod(partial, 0o755);
    const ctx = await contextFor(work.path, { strictReadBoundary: false });
    const expected = await createGrepTool({ ripgrep: null }).execute(ctx, { pattern: 'needle', path: '.' });
    for (const ripgrep of [join(bin.path, 'missing-rg'), failing, lying, partial]) {
      expect(await createGrepTool({ ripgrep }).execute(ctx, { pattern: 'needle', path: '.' })).toBe(expected);
    }
  });

  it('stops ripgrep and answers CANCELLED when the signal aborts', async () => {
    await using work = await tempDir();
    await writeFiles(
      work.path,
      Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`d${i % 20}/f${i}.txt`, 'needle'])),
    );
    const controller = new AbortController();
    const ctx = await contextFor(work.path, {}, controller.signal);
    const pending = createGrepTool({ ripgrep: 'rg' }).execute(ctx, { pattern: 'needle', path: '.' });
    setImmediate(() => controller.abort());
    await expect(pending).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});
