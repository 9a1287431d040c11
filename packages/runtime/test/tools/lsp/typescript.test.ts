import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createTempDir, type TempDir } from '@keel/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LspServers, type ToolContext } from '../../../src/tools/index.ts';
import { contextFor, runTool, writeFiles } from '../helpers.ts';
import { expectGone, languageServerProcesses } from './lsp-processes.ts';

// A real project for typescript-language-server: it finds no TypeScript of its own in the temp dir, so it
// runs the tsserver.js of the TypeScript 5.9 beside the runtime (the fallback path the runtime passes).
const project = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      strict: true,
      target: 'es2022',
      module: 'esnext',
      moduleResolution: 'bundler',
      noEmit: true,
    },
  }),
  'src/lib.ts': "export function greet(name: string): string {\n  return 'Hello, ' + name;\n}\n",
  'src/main.ts':
    "import { greet } from './lib';\n\nconst count: number = 'three';\nconsole.log(greet('world'), count);\n",
  'src/party.ts': "import { greet } from './lib';\n\nexport const cheer = '🎉🎉' + greet('🎉');\n",
  'src/tool.js': 'export function shout(text) {\n  return text.toUpperCase();\n}\n\nshout("hi");\n',
  'notes.txt': 'not code\n',
};

const mainError =
  'src/main.ts: 1 error (typescript-language-server)\n' +
  "src/main.ts:3:7-3:12 error typescript(2322): Type 'string' is not assignable to type 'number'.\n" +
  "    3 | const count: number = 'three';";

let dir: TempDir;
let servers: LspServers;
let ctx: ToolContext;

beforeAll(async () => {
  dir = await createTempDir({ prefix: 'keel-lsp-ts-' });
  await writeFiles(dir.path, project);
  await mkdir(join(dir.path, 'folder.ts'));
  servers = new LspServers();
  ctx = { ...(await contextFor(dir.path)), lsp: { servers } };
});

afterAll(async () => {
  // Every server process of this file, the tsserver under typescript-language-server included, must end.
  const pids = languageServerProcesses().map((info) => info.pid);
  await servers?.close();
  await expectGone(pids);
  expect(languageServerProcesses()).toEqual([]);
  await dir?.remove();
}, 30_000);

const call = (name: string, args: unknown) => runTool(ctx, name, args);

describe('the language-server tools on TypeScript (typescript-language-server)', () => {
  // The first query starts the server; on a busy machine that takes a while.
  test('lsp_diagnostics reports a real type error: range, severity, source, code, message and line', async () => {
    expect(await call('lsp_diagnostics', { file_path: 'src/main.ts' })).toBe(mainError);
    const running = await servers.running();
    expect(running).toEqual([
      {
        workdir: dir.path,
        language: 'typescript',
        name: 'typescript-language-server',
        pid: expect.any(Number),
      },
    ]);
    // typescript-language-server drives a tsserver of its own.
    expect(languageServerProcesses().some((info) => info.args.includes('tsserver'))).toBe(true);
  }, 90_000);

  test('lsp_definition answers for a symbol given by name or by column, in 1-based positions', async () => {
    const expected =
      'Definition of src/main.ts:4:13 (`greet`):\nsrc/lib.ts:1:17 `greet`: export function greet(name: string): string {';
    expect(await call('lsp_definition', { file_path: 'src/main.ts', line: 4, symbol: 'greet' })).toBe(
      expected,
    );
    expect(await call('lsp_definition', { file_path: 'src/main.ts', line: 4, column: 13 })).toBe(expected);
    // Inside the name works too, as in an editor.
    expect(await call('lsp_definition', { file_path: 'src/main.ts', line: 4, column: 15 })).toContain(
      'src/lib.ts:1:17 `greet`',
    );
  });

  test('lsp_references lists every use across files with its line', async () => {
    expect(await call('lsp_references', { file_path: 'src/lib.ts', line: 1, symbol: 'greet' })).toBe(
      [
        '5 references to src/lib.ts:1:17 (`greet`) in 3 files:',
        'src/lib.ts:1:17 `greet`: export function greet(name: string): string {',
        "src/main.ts:1:10 `greet`: import { greet } from './lib';",
        "src/main.ts:4:13 `greet`: console.log(greet('world'), count);",
        "src/party.ts:1:10 `greet`: import { greet } from './lib';",
        "src/party.ts:3:29 `greet`: export const cheer = '🎉🎉' + greet('🎉');",
      ].join('\n'),
    );
    const withoutDeclaration = await call('lsp_references', {
      file_path: 'src/lib.ts',
      line: 1,
      symbol: 'greet',
      include_declaration: false,
    });
    expect(withoutDeclaration).toMatch(/^4 references to src\/lib\.ts:1:17 \(`greet`\) in 2 files:\n/);
    expect(withoutDeclaration).not.toContain('src/lib.ts:1:17 `greet`: export');
  });

  test('lsp_hover gives the type and signature', async () => {
    expect(await call('lsp_hover', { file_path: 'src/lib.ts', line: 1, symbol: 'greet' })).toBe(
      'src/lib.ts:1:17 `greet`:\n```typescript\nfunction greet(name: string): string\n```',
    );
    expect(await call('lsp_hover', { file_path: 'src/main.ts', line: 3, symbol: 'count' })).toContain(
      'const count: number',
    );
    expect(await call('lsp_hover', { file_path: 'src/main.ts', line: 2, column: 1 })).toBe(
      'No hover information at src/main.ts:2:1. The position may not be on a name.',
    );
  });

  test('columns count characters: a symbol after emoji is found and reported at its character column', async () => {
    // '🎉' is one character but two UTF-16 units: greet is the 29th character and the 31st unit.
    const answer = await call('lsp_hover', { file_path: 'src/party.ts', line: 3, column: 29 });
    expect(answer).toContain('src/party.ts:3:29 `greet`:');
    expect(answer).toContain('greet(name: string): string');
  });

  test('JavaScript files are served by the same server', async () => {
    expect(await call('lsp_definition', { file_path: 'src/tool.js', line: 5, symbol: 'shout' })).toBe(
      'Definition of src/tool.js:5:1 (`shout`):\nsrc/tool.js:1:17 `shout`: export function shout(text) {',
    );
    expect(await servers.running()).toHaveLength(1);
  });

  test('a definition outside the workdir is shown by absolute path, without reading the file', async () => {
    const answer = await call('lsp_definition', { file_path: 'src/main.ts', line: 4, symbol: 'log' });
    expect(answer).toMatch(
      /^Definition of src\/main\.ts:4:9 \(`log`\):\n\/\S+\/lib\.dom\.d\.ts:\d+:\d+ \(not shown: outside the working directory or unreadable\)$/,
    );
  });

  test('after edit_file fixes the error, the diagnostics are clean from the same server', async () => {
    const [before] = await servers.running();
    expect(await call('edit_file', { path: 'src/main.ts', old_text: "'three'", new_text: '3' })).toContain(
      'Edited src/main.ts',
    );
    expect(await call('lsp_diagnostics', { file_path: 'src/main.ts' })).toBe(
      'No problems in src/main.ts (typescript-language-server).',
    );
    const [after] = await servers.running();
    expect(after?.pid).toBe(before?.pid);
    // Asked again with nothing changed, the answer is the same (and does not wait for a new publication).
    expect(await call('lsp_diagnostics', { file_path: 'src/main.ts' })).toBe(
      'No problems in src/main.ts (typescript-language-server).',
    );
  });

  test("a change to another file (write_file) shows in an unchanged file's diagnostics and hover", async () => {
    await call('write_file', {
      path: 'src/lib.ts',
      content: "export function greet(name: number): string {\n  return 'Hello, ' + name;\n}\n",
    });
    expect(await call('lsp_diagnostics', { file_path: 'src/main.ts' })).toBe(
      'src/main.ts: 1 error (typescript-language-server)\n' +
        "src/main.ts:4:19-4:26 error typescript(2345): Argument of type 'string' is not assignable to parameter of type 'number'.\n" +
        "    4 | console.log(greet('world'), count);",
    );
    expect(await call('lsp_hover', { file_path: 'src/main.ts', line: 4, symbol: 'greet' })).toContain(
      'greet(name: number): string',
    );
    await call('write_file', { path: 'src/lib.ts', content: project['src/lib.ts'] });
    expect(await call('lsp_diagnostics', { file_path: 'src/main.ts' })).toBe(
      'No problems in src/main.ts (typescript-language-server).',
    );
  });

  test('an edit by patch, and a file created by write_file, are checked as they are on disk', async () => {
    await call('patch', {
      path: 'src/main.ts',
      diff: '@@ -3,1 +3,1 @@\n-const count: number = 3;\n+const count: number = true;\n',
    });
    expect(await call('lsp_diagnostics', { file_path: 'src/main.ts' })).toContain(
      "src/main.ts:3:7-3:12 error typescript(2322): Type 'boolean' is not assignable to type 'number'.",
    );
    await call('write_file', { path: 'src/extra.ts', content: 'export const late: string = 42;\n' });
    expect(await call('lsp_diagnostics', { file_path: 'src/extra.ts' })).toBe(
      'src/extra.ts: 1 error (typescript-language-server)\n' +
        "src/extra.ts:1:14-1:18 error typescript(2322): Type 'number' is not assignable to type 'string'.\n" +
        '    1 | export const late: string = 42;',
    );
  });
});

describe('bad requests get a clear error at once', () => {
  const failure = async (name: string, args: unknown) => {
    const error = await call(name, args).then(
      () => undefined,
      (caught: unknown) => caught as { code: string; message: string },
    );
    expect(error, 'the call should have failed').toBeDefined();
    return { code: error?.code, message: error?.message };
  };

  test('a file of an unsupported language', async () => {
    expect(await failure('lsp_diagnostics', { file_path: 'notes.txt' })).toEqual({
      code: 'TOOL_ERROR',
      message: expect.stringMatching(
        /^No language server for notes\.txt: it has the extension \.txt\. The language-server tools support TypeScript and JavaScript \(.*\) and Python \(\.py \.pyi\)/,
      ),
    });
    expect((await failure('lsp_hover', { file_path: 'Makefile', line: 1, column: 1 })).message).toContain(
      'No language server for Makefile: it has no extension.',
    );
  });

  test('a missing file, a directory, and a path outside the workdir', async () => {
    expect(await failure('lsp_diagnostics', { file_path: 'src/missing.ts' })).toEqual({
      code: 'TOOL_ERROR',
      message: 'File not found: src/missing.ts. Check the path with list_directory or glob.',
    });
    expect(await failure('lsp_diagnostics', { file_path: 'folder.ts' })).toEqual({
      code: 'TOOL_ERROR',
      message: 'folder.ts is a directory, not a file. Give the path of a source file.',
    });
    for (const outside of ['../elsewhere.ts', '/etc/hostname.ts']) {
      expect((await failure('lsp_definition', { file_path: outside, line: 1, column: 1 })).code).toBe(
        'PERMISSION_DENIED',
      );
    }
  });

  test('a position that is not on the file', async () => {
    expect(await failure('lsp_definition', { file_path: 'src/lib.ts', line: 9, column: 1 })).toEqual({
      code: 'TOOL_ERROR',
      message:
        'Line 9 is past the end of src/lib.ts, which has 3 lines. Read the file with read_file to find the line.',
    });
    expect((await failure('lsp_hover', { file_path: 'src/lib.ts', line: 2, column: 60 })).message).toBe(
      'Column 60 is past the end of line 2 of src/lib.ts, which has 26 characters: "  return \'Hello, \' + name;". ' +
        "Give the column of the symbol's first character, or give symbol instead of column.",
    );
    expect(
      (await failure('lsp_references', { file_path: 'src/lib.ts', line: 2, symbol: 'greet' })).message,
    ).toBe(
      `'greet' does not appear as a name on line 2 of src/lib.ts: "  return 'Hello, ' + name;". Check the line number with read_file or grep.`,
    );
    expect(await failure('lsp_hover', { file_path: 'src/lib.ts', line: 1 })).toEqual({
      code: 'INVALID_PARAMS',
      message: 'Give column (1-based) or symbol (the name on that line) with line.',
    });
    expect((await failure('lsp_hover', { file_path: 'src/lib.ts', line: 0, column: 1 })).code).toBe(
      'INVALID_PARAMS',
    );
  });
});
