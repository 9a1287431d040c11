import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  claudeCodeAdapter,
  codexAdapter,
  geminiAdapter,
  opencodeAdapter,
} from '../../../src/runners/cli/index.ts';
import type { McpServerSetting } from '../../../src/runners/index.ts';
import { type AgentName, ensureAgent } from './ensure-agents.ts';
import { bodyOf, secretKey, startAgentHarness } from './harness.ts';

// The MCP reference server "everything" (a devDependency), over stdio; the marker finds its processes.
const everythingEntry = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

function everything(name: string, enabled: boolean): { setting: McpServerSetting; marker: string } {
  const marker = `keel-cli-mcp-${randomUUID()}`;
  return {
    marker,
    setting: { name, command: process.execPath, args: [everythingEntry, 'stdio', marker], env: {}, enabled },
  };
}

function processesWith(marker: string): number {
  return execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(marker)).length;
}

const dirs: Partial<Record<AgentName, string>> = {};
beforeAll(async () => {
  for (const name of ['codex', 'claude-code', 'opencode', 'gemini'] as const)
    dirs[name] = await ensureAgent(name);
}, 600_000);

/** How each agent names the server's `echo` tool to the model. */
const callers = [
  { name: 'claude-code', adapter: claudeCodeAdapter, tool: 'mcp__everything__echo', url: 'baseUrl' },
  { name: 'opencode', adapter: opencodeAdapter, tool: 'everything_echo', url: 'url' },
  { name: 'gemini', adapter: geminiAdapter, tool: 'mcp_everything_echo', url: 'baseUrl' },
] as const;

describe('MCP servers from the workbench reach the command-line agents', () => {
  test('Codex: an enabled server is offered to the model, a disabled one is not, and none outlives the run', async () => {
    await using harness = await startAgentHarness(codexAdapter, () => [{ text: 'Looked at the tools.' }], {
      agentsDir: dirs.codex!,
    });
    const on = everything('everything', true);
    const off = everything('hidden', false);
    const { outcome } = await harness.run({
      model: { model: 'mock-model', baseUrl: harness.model.url, apiKey: secretKey },
      mcpServers: [on.setting, off.setting],
    });
    expect(outcome.status).toBe('succeeded');
    const tools = JSON.stringify(bodyOf(harness.model.requests.at(-1)).tools);
    expect(tools).toContain('everything');
    expect(tools).toContain('echo');
    expect(tools).not.toContain('hidden');
    await expect.poll(() => processesWith(on.marker), { timeout: 5_000 }).toBe(0);
  }, 120_000);

  for (const { name, adapter, tool, url } of callers) {
    test(`${name}: the model calls a tool of the server, reported as kind mcp`, async () => {
      await using harness = await startAgentHarness(
        adapter,
        () => [{ toolCalls: [{ name: tool, arguments: { message: 'ping-42' } }] }, { text: 'Echoed.' }],
        { agentsDir: dirs[name]! },
      );
      const on = everything('everything', true);
      const { events, outcome } = await harness.run({
        model: { model: 'mock-model', baseUrl: harness.model[url], apiKey: secretKey },
        mcpServers: [on.setting],
      });
      expect(outcome).toMatchObject({ status: 'succeeded', output: 'Echoed.' });
      expect(events).toContainEqual(
        expect.objectContaining({ type: 'tool_call', tool_name: tool, kind: 'mcp' }),
      );
      const result = events.find((event) => event.type === 'tool_result');
      expect(result).toMatchObject({ tool_name: tool, kind: 'mcp', ok: true });
      expect(result?.type === 'tool_result' && result.result).toContain('ping-42');
      await expect.poll(() => processesWith(on.marker), { timeout: 5_000 }).toBe(0);
    }, 180_000);
  }
});
