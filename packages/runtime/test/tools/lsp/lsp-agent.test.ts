import { expect, test } from 'vitest';
import { startHarness } from '../../harness.ts';
import { expectGone, languageServerProcesses } from './lsp-processes.ts';

const files = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', noEmit: true } }),
  'src/lib.ts': 'export function twice(n: number): number {\n  return n * 2;\n}\n',
  'src/main.ts': "import { twice } from './lib';\n\nconst total: number = twice('4');\nconsole.log(total);\n",
};

test('the agent checks a file with lsp_diagnostics, fixes it with edit_file, and sees it clean', async () => {
  await using h = await startHarness(
    [
      { toolCalls: [{ name: 'lsp_diagnostics', arguments: { file_path: 'src/main.ts' } }] },
      {
        toolCalls: [
          { name: 'lsp_definition', arguments: { file_path: 'src/main.ts', line: 3, symbol: 'twice' } },
        ],
      },
      {
        toolCalls: [
          {
            name: 'edit_file',
            arguments: { path: 'src/main.ts', old_text: "twice('4')", new_text: 'twice(4)' },
          },
        ],
      },
      { toolCalls: [{ name: 'lsp_diagnostics', arguments: { file_path: 'src/main.ts' } }] },
      { toolCalls: [{ name: 'lsp_hover', arguments: { file_path: 'src/main.ts', line: 9, column: 1 } }] },
      { text: 'Fixed: twice takes a number.' },
    ],
    files,
  );
  const { events, result, error } = await h.collect({ prompt: 'Fix the type errors in src/main.ts' });
  expect(error).toBeUndefined();
  expect(result?.output).toBe('Fixed: twice takes a number.');

  const offered = (h.model.chatRequests[0]?.tools ?? []).map((tool) => tool.function?.name);
  expect(offered).toEqual(
    expect.arrayContaining(['lsp_diagnostics', 'lsp_definition', 'lsp_references', 'lsp_hover']),
  );

  const results = events.flatMap((event) => (event.type === 'tool_result' ? [event] : []));
  expect(results.map((event) => event.tool_name)).toEqual([
    'lsp_diagnostics',
    'lsp_definition',
    'edit_file',
    'lsp_diagnostics',
    'lsp_hover',
  ]);
  expect(results[0]?.result).toBe(
    'src/main.ts: 1 error (typescript-language-server)\n' +
      "src/main.ts:3:29-3:32 error typescript(2345): Argument of type 'string' is not assignable to parameter of type 'number'.\n" +
      "    3 | const total: number = twice('4');",
  );
  expect(results[1]?.result).toBe(
    'Definition of src/main.ts:3:23 (`twice`):\nsrc/lib.ts:1:17 `twice`: export function twice(n: number): number {',
  );
  expect(results[3]?.result).toBe('No problems in src/main.ts (typescript-language-server).');
  // A failed call reaches the model as an error it can act on.
  expect(results[4]?.result).toContain('Line 9 is past the end of src/main.ts, which has 4 lines.');
  // The model's next request carried the diagnostics.
  expect(JSON.stringify(h.model.chatRequests[1]?.messages)).toContain('typescript(2345)');

  // The server outlives the run (later runs reuse it) but not the runtime.
  const pids = languageServerProcesses().map((info) => info.pid);
  expect(pids.length).toBeGreaterThan(0);
  await h.runtime.close();
  await expectGone(pids);
}, 120_000);
