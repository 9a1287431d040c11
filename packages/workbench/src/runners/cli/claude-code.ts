import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AgentAdapter,
  type AgentContext,
  type AgentInvocation,
  baseUrlWithout,
  writeImages,
} from './agent.ts';
import { ClaudeEventMapper } from './claude-events.ts';

/** Tools a writing request may use without asking (`-p` cannot ask: an unlisted tool is refused). */
const writingTools = [
  'Bash',
  'Edit',
  'Write',
  'MultiEdit',
  'NotebookEdit',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
];

/**
 * Claude Code: `claude -p --output-format stream-json --verbose <prompt>`, resumed with `--resume <id>`.
 * HOME and CLAUDE_CONFIG_DIR are the private home; the model is reached through `ANTHROPIC_BASE_URL`
 * (without `/v1`: Claude Code appends it) and `ANTHROPIC_API_KEY`. Standing instructions go to
 * `--append-system-prompt`, MCP servers to `--mcp-config` (with `--strict-mcp-config`: only ours).
 * Read-only requests run in `--permission-mode plan`; the others in `acceptEdits` with the usual tools
 * allowed by `--allowedTools`, since nobody can answer a permission prompt. `--dangerously-skip-permissions`
 * is not used: Claude Code refuses it when run as root, as agents in containers often are.
 */
export const claudeCodeAdapter: AgentAdapter = {
  kind: 'claude-code',
  binaryNames: ['claude'],
  async prepare(context: AgentContext): Promise<AgentInvocation> {
    const { request, home, model } = context;
    const configDir = join(home, '.claude');
    await mkdir(configDir, { recursive: true });
    const args = ['-p', '--output-format', 'stream-json', '--verbose'];
    if (model) args.push('--model', model);
    if (request.resumeSessionId) args.push('--resume', request.resumeSessionId);
    args.push('--permission-mode', request.readOnly ? 'plan' : 'acceptEdits');
    const servers = request.mcpServers.filter((server) => server.enabled);
    // The workbench's MCP servers were enabled by the user: their tools need no prompt (`mcp__<server>`).
    const mcpTools = servers.map((server) => `mcp__${server.name}`);
    const allowed = request.readOnly ? mcpTools : [...writingTools, ...mcpTools];
    if (allowed.length > 0) args.push('--allowedTools', allowed.join(','));
    const instructions = request.instructions?.trim();
    if (instructions) args.push('--append-system-prompt', instructions);
    if (servers.length > 0) {
      const file = join(home, 'mcp.json');
      const mcpServers = Object.fromEntries(
        servers.map((server) => [
          server.name,
          { command: server.command, args: server.args, env: server.env },
        ]),
      );
      await writeFile(file, JSON.stringify({ mcpServers }), { mode: 0o600 });
      args.push('--mcp-config', file, '--strict-mcp-config');
    }
    const images = await writeImages(home, request.images);
    const roots = [...(request.allowedRoots ?? []), ...(images.length ? [join(home, 'images')] : [])];
    for (const root of roots) args.push('--add-dir', root);
    const apiKey = request.model.apiKey ?? context.env.ANTHROPIC_API_KEY;
    return {
      args,
      tail: ['--', withImages(request.prompt, images)],
      env: {
        HOME: home,
        CLAUDE_CONFIG_DIR: configDir,
        ...(apiKey ? { ANTHROPIC_API_KEY: apiKey } : {}),
        ...(request.model.baseUrl
          ? { ANTHROPIC_BASE_URL: baseUrlWithout(request.model.baseUrl, ['/v1']) }
          : {}),
        // No telemetry, error reports or update checks from a workbench run.
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      },
    };
  },
  createMapper: (context) => new ClaudeEventMapper(context.workdirs),
};

/** Agents without an image option read images as files: the prompt names them. */
export function withImages(prompt: string, images: string[]): string {
  if (images.length === 0) return prompt;
  return `${prompt}\n\nImages attached to this request (read them):\n${images.map((path) => `- ${path}`).join('\n')}`;
}
