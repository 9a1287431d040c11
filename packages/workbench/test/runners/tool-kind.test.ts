import { describe, expect, test } from 'vitest';
import { toolKindOf } from '../../src/runners/index.ts';

describe('toolKindOf', () => {
  test.each([
    ['read_file', 'file_read'],
    ['edit_file', 'file_edit'],
    ['write_file', 'file_edit'],
    ['patch', 'file_edit'],
    ['undo_file', 'file_edit'],
    ['redo_file', 'file_edit'],
    ['exec_command', 'command'],
    ['grep', 'search'],
    ['glob', 'search'],
    ['search_files', 'search'],
    ['list_directory', 'search'],
    ['webfetch', 'web'],
    ['websearch', 'web'],
    ['todo_write', 'todo'],
    ['todo_read', 'todo'],
    ['mcp_list_tools', 'mcp'],
    ['mcp_call', 'mcp'],
    ['question', 'other'],
    ['read_skill', 'other'],
    ['save_memory', 'other'],
    ['', 'other'],
  ])('%s → %s', (name, kind) => {
    expect(toolKindOf(name)).toBe(kind);
  });
});
