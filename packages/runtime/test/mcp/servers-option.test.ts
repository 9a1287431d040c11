import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTempGitRepo, startMockModel } from '@keel/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import { createRuntime, type Runtime } from '../../src/index.ts';
import { everythingStdio } from './reference-servers.ts';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('RuntimeOptions.mcpServers', () => {
  test("an embedder's servers are offered beside the configured ones and replace one of the same name", async () => {
    const model = await startMockModel({
      script: [{ toolCalls: [{ name: 'mcp_list_tools', arguments: {} }] }, { text: 'Listed.' }],
    });
    cleanups.push(() => model.close());
    const runtimeDir = await mkdtemp(join(tmpdir(), 'keel-home-'));
    cleanups.push(() => rm(runtimeDir, { recursive: true, force: true }));
    const repo = await createTempGitRepo();
    cleanups.push(() => repo.remove());
    // The config file names two servers; the option replaces 'shared' and adds 'everything'.
    await writeFile(
      join(runtimeDir, 'config.json'),
      JSON.stringify({
        mcp: {
          servers: [
            { name: 'configured', transport: 'stdio', command: 'keel-no-such-mcp-server' },
            { name: 'everything', transport: 'stdio', command: 'keel-replaced-mcp-server' },
          ],
        },
      }),
    );
    const runtime: Runtime = createRuntime({
      runtimeDir,
      model: 'mock-model',
      modelBaseUrl: model.url,
      env: {},
      mcpServers: [everythingStdio().config],
    });
    cleanups.push(() => runtime.close());

    const events: Array<{ type: string; result?: string }> = [];
    await runtime.run(
      { prompt: 'List the MCP tools', workdir: repo.path },
      { onEvent: (e) => void events.push(e) },
    );

    const listing = events.find((event) => event.type === 'tool_result')?.result ?? '';
    expect(listing).toContain('- echo(message: string): Echoes back the input string');
    expect(listing).toContain('configured');
    expect(listing).not.toContain('keel-replaced-mcp-server');
  });

  test('without the option nothing changes: no servers, no MCP tools', async () => {
    const model = await startMockModel({ script: [{ text: 'Hello.' }] });
    cleanups.push(() => model.close());
    const runtimeDir = await mkdtemp(join(tmpdir(), 'keel-home-'));
    cleanups.push(() => rm(runtimeDir, { recursive: true, force: true }));
    const runtime = createRuntime({ runtimeDir, model: 'mock-model', modelBaseUrl: model.url, env: {} });
    cleanups.push(() => runtime.close());
    await runtime.run({ prompt: 'Hi', workdir: runtimeDir });
    const offered = (model.chatRequests[0]?.tools ?? []).map((tool) => tool.function?.name);
    expect(offered).not.toContain('mcp_list_tools');
  });
});
