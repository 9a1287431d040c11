// The spec's tool table (section 4) states 30 built-in tools: 28 core plus the 2 MCP meta tools. With
// skills and an MCP server configured, the agent is offered all of those, by those names, and beyond them
// only built-in tools of our own.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { createCodingTools } from '../../src/tools/index.ts';
import { startHarness } from '../harness.ts';

const specTools = [
  'read_file',
  'write_file',
  'edit_file',
  'list_directory',
  'grep',
  'glob',
  'search_files',
  'patch',
  'exec_command',
  'webfetch',
  'websearch',
  'lsp_diagnostics',
  'lsp_definition',
  'lsp_references',
  'lsp_hover',
  'undo_file',
  'redo_file',
  'list_file_changes',
  'todo_write',
  'todo_read',
  'question',
  'save_memory',
  'list_skills',
  'read_skill',
  'spawn_agent',
  'get_agent_status',
  'kill_agent',
  'resume_agent',
  'mcp_list_tools',
  'mcp_call',
];

test('with skills and an MCP server configured, the agent is offered the 30 tools of the spec', async () => {
  await using h = await startHarness([{ text: 'Ready.' }]);
  await writeFile(
    join(h.runtimeDir, 'config.json'),
    // Never started: the meta tools are offered before the model asks a server for anything.
    JSON.stringify({
      mcp: { servers: [{ name: 'local', transport: 'stdio', command: 'keel-no-such-server' }] },
    }),
  );
  const { error } = await h.collect({ prompt: 'What can you use?' });
  expect(error).toBeUndefined();
  const offered: string[] = (h.model.chatRequests[0]?.tools ?? []).map(
    (tool: { function?: { name?: string } }) => tool.function?.name ?? '',
  );
  expect(specTools).toHaveLength(30);
  expect(new Set(offered).size).toBe(offered.length);
  expect(offered).toEqual(expect.arrayContaining(specTools));
  // A built-in tool the spec does not name may join them (AGENTS.md, "A new built-in tool"); nothing else may.
  const beyond = offered.filter((name) => !specTools.includes(name));
  expect(beyond.filter((name) => !createCodingTools().has(name))).toEqual([]);
});
