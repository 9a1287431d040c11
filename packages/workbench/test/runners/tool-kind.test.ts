import { toolKindOfDeclared, toolKindOfRuntimeTool } from '@keel/protocol/workbench/names';
import { createCodingTools, type ToolTraits } from '@keel/runtime';
import { describe, expect, test } from 'vitest';
import { toolKindOf } from '../../src/runners/index.ts';
import { readOnlyTools } from '../../src/runners/keel-request.ts';

describe('toolKindOf', () => {
  test.each([
    ['read_file', 'file_read'],
    ['list_directory', 'file_read'],
    ['list_file_changes', 'file_read'],
    ['edit_file', 'file_edit'],
    ['write_file', 'file_edit'],
    ['patch', 'file_edit'],
    ['undo_file', 'file_edit'],
    ['redo_file', 'file_edit'],
    ['exec_command', 'command'],
    ['grep', 'search'],
    ['glob', 'search'],
    ['search_files', 'search'],
    ['lsp_definition', 'search'],
    ['webfetch', 'web'],
    ['websearch', 'web'],
    ['todo_write', 'todo'],
    ['todo_read', 'todo'],
    ['mcp_list_tools', 'mcp'],
    ['mcp_call', 'mcp'],
    ['question', 'other'],
    ['read_skill', 'other'],
    ['save_memory', 'other'],
    ['spawn_agent', 'other'],
    ['no_such_tool', 'other'],
    ['', 'other'],
  ])('%s → %s', (name, kind) => {
    expect(toolKindOf(name)).toBe(kind);
  });

  test('every built-in tool is shown as its traits say, so a new tool needs no table here', () => {
    const tools = createCodingTools();
    for (const name of tools.names()) {
      const byTraits = toolKindOfRuntimeTool('', tools.traitsOf(name).kind);
      // Only the task list, which traits cannot tell from other thinking, goes by its name.
      const expected = byTraits === 'other' && name.startsWith('todo_') ? 'todo' : byTraits;
      expect([name, toolKindOf(name)]).toEqual([name, expected]);
    }
  });

  test.each<[ToolTraits, string]>([
    [{ kind: 'execute', readOnly: false, runsCommands: true }, 'command'],
    [{ kind: 'edit', readOnly: false, writesFiles: true }, 'file_edit'],
    [{ kind: 'read', readOnly: true }, 'file_read'],
    [{ kind: 'search', readOnly: true }, 'search'],
    [{ kind: 'fetch', readOnly: true, network: true }, 'web'],
    [{ kind: 'think', readOnly: true }, 'other'],
    [{ kind: 'agent', readOnly: false }, 'other'],
    [{ kind: 'other', readOnly: false }, 'other'],
  ])('a tool with traits %j → %s', (traits, kind) => {
    expect(toolKindOfRuntimeTool('a_tool', traits.kind)).toBe(kind);
  });
});

describe('readOnlyTools', () => {
  test('every built-in tool whose traits say read-only and local, but question (nobody answers it)', () => {
    const tools = createCodingTools();
    const expected = tools
      .list()
      .filter(
        (tool) =>
          tool.traits?.readOnly === true &&
          !tool.traits.network &&
          tool.name !== 'question' &&
          !tool.name.startsWith('lsp_'),
      )
      .map((tool) => tool.name);
    expect([...readOnlyTools].sort()).toEqual(expected.sort());
    expect(readOnlyTools).toEqual(expect.arrayContaining(['read_file', 'list_directory', 'grep', 'glob']));
    // Language servers run outside the sandbox and may load what the repository names.
    expect(readOnlyTools.filter((name) => name.startsWith('lsp_'))).toEqual([]);
    for (const name of [
      'write_file',
      'edit_file',
      'patch',
      'exec_command',
      'undo_file',
      'question',
      'webfetch',
      'websearch',
    ]) {
      expect(readOnlyTools).not.toContain(name);
    }
    for (const name of readOnlyTools) {
      const traits = tools.traitsOf(name);
      expect([name, traits.writesFiles ?? false, traits.runsCommands ?? false]).toEqual([name, false, false]);
    }
  });
});

describe('toolKindOfDeclared: the one table of declared kinds, runtime traits and ACP alike', () => {
  test.each([
    ['read', 'file_read'],
    ['edit', 'file_edit'],
    ['delete', 'file_edit'],
    ['move', 'file_edit'],
    ['execute', 'command'],
    ['search', 'search'],
    ['fetch', 'web'],
    ['think', 'other'],
    ['switch_mode', 'other'],
    ['toString', 'other'],
    [null, 'other'],
  ])('%s is shown as %s', (declared, kind) => {
    expect(toolKindOfDeclared(declared)).toBe(kind);
  });
});
