import { createTempDir, type TempDir } from '@keel/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LspServers, type ToolContext } from '../../../src/tools/index.ts';
import { contextFor, runTool, writeFiles } from '../helpers.ts';
import { expectGone, languageServerProcesses } from './lsp-processes.ts';

const project = {
  'util.py': 'def greet(name: str) -> str:\n    return "Hello, " + name\n',
  'main.py': 'from util import greet\n\ncount: int = "three"\nprint(greet("world"), count)\n',
};

let dir: TempDir;
let servers: LspServers;
let ctx: ToolContext;

beforeAll(async () => {
  dir = await createTempDir({ prefix: 'keel-lsp-py-' });
  await writeFiles(dir.path, project);
  servers = new LspServers();
  ctx = { ...(await contextFor(dir.path)), lsp: { servers } };
});

afterAll(async () => {
  const pids = languageServerProcesses().map((info) => info.pid);
  await servers?.close();
  await expectGone(pids);
  expect(languageServerProcesses()).toEqual([]);
  await dir?.remove();
}, 30_000);

const call = (name: string, args: unknown) => runTool(ctx, name, args);

describe('the language-server tools on Python (pyright)', () => {
  test('lsp_diagnostics reports a real type error from pyright', async () => {
    expect(await call('lsp_diagnostics', { file_path: 'main.py' })).toBe(
      [
        'main.py: 1 error (pyright)',
        `main.py:3:14-3:21 error Pyright(reportAssignmentType): Type "Literal['three']" is not assignable to declared type "int"`,
        `      "Literal['three']" is not assignable to "int"`,
        '    3 | count: int = "three"',
      ].join('\n'),
    );
    expect(await servers.running()).toEqual([
      { workdir: dir.path, language: 'python', name: 'pyright', pid: expect.any(Number) },
    ]);
  }, 90_000);

  test('lsp_definition, lsp_references and lsp_hover answer for a real symbol', async () => {
    expect(await call('lsp_definition', { file_path: 'main.py', line: 4, symbol: 'greet' })).toBe(
      'Definition of main.py:4:7 (`greet`):\nutil.py:1:5 `greet`: def greet(name: str) -> str:',
    );
    expect(await call('lsp_references', { file_path: 'util.py', line: 1, column: 5 })).toBe(
      [
        '3 references to util.py:1:5 (`greet`) in 2 files:',
        'main.py:1:18 `greet`: from util import greet',
        'main.py:4:7 `greet`: print(greet("world"), count)',
        'util.py:1:5 `greet`: def greet(name: str) -> str:',
      ].join('\n'),
    );
    expect(await call('lsp_hover', { file_path: 'main.py', line: 4, symbol: 'greet' })).toBe(
      'main.py:4:7 `greet`:\n```python\n(function) def greet(name: str) -> str\n```',
    );
  });

  test('after write_file fixes the error, the diagnostics are clean from the same server', async () => {
    const [before] = await servers.running();
    await call('write_file', {
      path: 'main.py',
      content: 'from util import greet\n\ncount: int = 3\nprint(greet("world"), count)\n',
    });
    expect(await call('lsp_diagnostics', { file_path: 'main.py' })).toBe('No problems in main.py (pyright).');
    const [after] = await servers.running();
    expect(after?.pid).toBe(before?.pid);
  });

  test("a change to another file shows in an unchanged file's diagnostics", async () => {
    await call('edit_file', { path: 'util.py', old_text: 'name: str', new_text: 'name: int' });
    const answer = await call('lsp_diagnostics', { file_path: 'main.py' });
    expect(answer).toMatch(
      /^main\.py: 1 error \(pyright\)\nmain\.py:4:13-4:20 error Pyright\(reportArgumentType\): /,
    );
    expect(answer).toContain('    4 | print(greet("world"), count)');
  });
});
