import { expect, test } from 'vitest';
import { expectGone, languageServerProcesses } from '../../runtime/test/tools/lsp/lsp-processes.ts';
import { startServer } from './harness.ts';

const files = {
  'util.py': 'def greet(name: str) -> str:\n    return "Hello, " + name\n',
  'main.py': 'from util import greet\n\ncount: int = "three"\nprint(greet("world"), count)\n',
  'notes.txt': 'not code\n',
};

test('POST /tool runs the language-server tools on the real keel-web server', async () => {
  const s = await startServer([], { files });
  let pids: number[] = [];
  try {
    const diagnostics = await s.api('POST', '/tool', {
      tool: 'lsp_diagnostics',
      params: { file_path: 'main.py' },
    });
    expect(diagnostics.status).toBe(200);
    expect(diagnostics.body).toEqual({
      status: 'success',
      result: expect.stringMatching(
        /^main\.py: 1 error \(pyright\)\nmain\.py:3:14-3:21 error Pyright\(reportAssignmentType\): Type "Literal\['three'\]" is not assignable to declared type "int"/,
      ),
    });
    const definition = await s.api('POST', '/tool', {
      tool: 'lsp_definition',
      params: { file_path: 'main.py', line: 4, symbol: 'greet' },
      workdir: s.repo.path,
    });
    expect(definition).toEqual({
      status: 200,
      body: {
        status: 'success',
        result: 'Definition of main.py:4:7 (`greet`):\nutil.py:1:5 `greet`: def greet(name: str) -> str:',
      },
    });
    // A fix through POST /tool is seen by the next query, from the same server.
    pids = languageServerProcesses().map((info) => info.pid);
    await s.api('POST', '/tool', {
      tool: 'edit_file',
      params: { path: 'main.py', old_text: 'count: int = "three"', new_text: 'count: int = 3' },
    });
    const clean = await s.api('POST', '/tool', { tool: 'lsp_diagnostics', params: { file_path: 'main.py' } });
    expect(clean.body).toEqual({ status: 'success', result: 'No problems in main.py (pyright).' });
    expect(languageServerProcesses().map((info) => info.pid)).toEqual(pids);

    // Bad requests: the spec's error shape and status codes.
    const unsupported = await s.api('POST', '/tool', {
      tool: 'lsp_diagnostics',
      params: { file_path: 'notes.txt' },
    });
    expect(unsupported).toMatchObject({
      status: 500,
      body: {
        error: { code: 'TOOL_ERROR', message: expect.stringContaining('No language server for notes.txt') },
      },
    });
    const outside = await s.api('POST', '/tool', {
      tool: 'lsp_hover',
      params: { file_path: '../../../etc/passwd.py', line: 1, column: 1 },
    });
    expect(outside).toMatchObject({ status: 403, body: { error: { code: 'PERMISSION_DENIED' } } });
    const pastEnd = await s.api('POST', '/tool', {
      tool: 'lsp_references',
      params: { file_path: 'main.py', line: 40, column: 1 },
    });
    expect(pastEnd).toMatchObject({
      status: 500,
      body: {
        error: { code: 'TOOL_ERROR', message: expect.stringContaining('Line 40 is past the end of main.py') },
      },
    });
    const noPosition = await s.api('POST', '/tool', { tool: 'lsp_hover', params: { file_path: 'main.py' } });
    expect(noPosition).toMatchObject({ status: 400, body: { error: { code: 'INVALID_PARAMS' } } });
  } finally {
    // Closing the server closes its runtimes, which stop their language servers.
    await s[Symbol.asyncDispose]();
  }
  await expectGone(pids);
  expect(languageServerProcesses()).toEqual([]);
}, 90_000);
