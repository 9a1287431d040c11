import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createTempDir, eventually } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import type { McpServerSetting } from '../../src/runners/index.ts';
import { startKeelHarness } from './keel-harness.ts';

// The MCP reference server "everything", installed for the runtime's own MCP tests.
const everythingEntry = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

/** A setting that runs "everything" over stdio; the marker (an argument it ignores) finds its process. */
function everything(name: string, enabled: boolean): { setting: McpServerSetting; marker: string } {
  const marker = `keel-wb-mcp-${randomUUID()}`;
  return {
    marker,
    setting: { name, command: process.execPath, args: [everythingEntry, 'stdio', marker], env: {}, enabled },
  };
}

function processesWith(marker: string): number {
  const listing = execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' });
  return listing.split('\n').filter((line) => line.includes(marker)).length;
}

async function expectGone(marker: string): Promise<void> {
  await eventually(() => processesWith(marker) === 0, {
    timeoutMs: 5_000,
    intervalMs: 50,
    what: `the MCP server with ${marker} to stop`,
  });
}

function toolsOffered(request: { tools?: Array<{ function?: { name?: string } }> } | undefined): string[] {
  return (request?.tools ?? []).map((tool) => tool.function?.name ?? '');
}

describe('KeelRunner with MCP servers and skills from the workbench', () => {
  test('an enabled server is visible to the agent, a disabled one is not, and the run stops it', async () => {
    await using h = await startKeelHarness([
      { toolCalls: [{ name: 'mcp_list_tools', arguments: {} }] },
      { when: { lastRole: 'tool' }, text: 'The everything server has an echo tool.' },
    ]);
    const on = everything('everything', true);
    const off = everything('hidden', false);

    const { events, outcome } = await h.run({ mcpServers: [on.setting, off.setting] });

    expect(outcome.status).toBe('succeeded');
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'tool_call', tool_name: 'mcp_list_tools', kind: 'mcp' }),
    );
    const listing = events.find((event) => event.type === 'tool_result');
    expect(listing).toMatchObject({ tool_name: 'mcp_list_tools', kind: 'mcp', ok: true });
    const result = listing?.type === 'tool_result' ? listing.result : '';
    expect(result).toContain('everything');
    expect(result).toContain('- echo(message: string): Echoes back the input string');
    expect(result).not.toContain('hidden');
    // The disabled server was never started; the enabled one ended with the run.
    expect(processesWith(off.marker)).toBe(0);
    await expectGone(on.marker);
  });

  test('with only disabled servers the agent gets no MCP tools', async () => {
    await using h = await startKeelHarness([{ text: 'No MCP here.' }]);
    const { outcome } = await h.run({ mcpServers: [everything('hidden', false).setting] });
    expect(outcome.status).toBe('succeeded');
    expect(toolsOffered(h.model.chatRequests[0])).not.toContain('mcp_list_tools');
    expect(toolsOffered(h.model.chatRequests[0])).toContain('read_file');
  });

  test("a project's skill directories reach the agent: listed in its prompt and readable", async () => {
    await using skills = await createTempDir();
    await mkdir(join(skills.path, 'house-style'));
    await writeFile(
      join(skills.path, 'house-style', 'SKILL.md'),
      '---\nname: house-style\ndescription: How this team writes TypeScript. Use before editing code.\n---\n\n# House style\n\nTabs, never spaces.\n',
    );
    await using h = await startKeelHarness([
      { toolCalls: [{ name: 'read_skill', arguments: { name: 'house-style' } }] },
      { when: { lastRole: 'tool' }, text: 'Tabs it is.' },
    ]);

    const { events, outcome } = await h.run({ skillDirs: [skills.path] });

    expect(outcome.status).toBe('succeeded');
    const system = JSON.stringify(h.model.chatRequests[0]?.messages?.[0]?.content);
    expect(system).toContain('house-style');
    const read = events.find((event) => event.type === 'tool_result');
    expect(read).toMatchObject({
      tool_name: 'read_skill',
      ok: true,
      result: expect.stringContaining('Tabs, never spaces.'),
    });
  });
});
