import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promptOf } from '../keel-request.ts';
import { type AgentAdapter, type AgentContext, type AgentInvocation, writeImages } from './agent.ts';
import { withImages } from './claude-code.ts';
import { CursorEventMapper } from './cursor-events.ts';

/**
 * Cursor's agent CLI: `cursor-agent -p --output-format stream-json <prompt>`, resumed with `--resume <id>`.
 * It talks only to Cursor's own service, so the workbench's model, base URL and key are NOT passed: it
 * authenticates with `CURSOR_API_KEY` from the runner config's env (the private HOME holds no login), and
 * takes a model only from the runner config's `model` (Cursor's model names, not the workbench's).
 * MCP servers go to `~/.cursor/mcp.json` in the private home, approved with `--approve-mcps`.
 * Read-only requests run `--mode ask`; the others `--force`, so commands run without a prompt.
 */
export const cursorAdapter: AgentAdapter = {
  kind: 'cursor',
  binaryNames: ['cursor-agent', 'agent'],
  async prepare(context: AgentContext): Promise<AgentInvocation> {
    const { request, home } = context;
    const servers = request.mcpServers.filter((server) => server.enabled);
    const args = ['-p', '--output-format', 'stream-json'];
    if (request.config.model) args.push('--model', request.config.model);
    if (request.resumeSessionId) args.push('--resume', request.resumeSessionId);
    args.push(...(request.readOnly ? ['--mode', 'ask'] : ['--force']));
    if (servers.length > 0) {
      await mkdir(join(home, '.cursor'), { recursive: true });
      const mcpServers = Object.fromEntries(
        servers.map((server) => [
          server.name,
          { command: server.command, args: server.args, env: server.env },
        ]),
      );
      await writeFile(join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers }), { mode: 0o600 });
      args.push('--approve-mcps');
    }
    const images = await writeImages(home, request.images);
    return {
      args,
      tail: ['--', withImages(promptOf(request), images)],
      env: { HOME: home },
    };
  },
  createMapper: (context) => new CursorEventMapper(context.workdirs),
};
