import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'smol-toml';
import { promptOf } from '../keel-request.ts';
import { type AgentAdapter, type AgentContext, type AgentInvocation, writeImages } from './agent.ts';
import { CodexEventMapper } from './codex-events.ts';
import { codexHomesRoot } from './session-homes.ts';

/** Codex reads the key from this variable (`env_key`), so it is never written into config.toml. */
export const codexKeyVariable = 'KEEL_CODEX_API_KEY';
const defaultBaseUrl = 'https://api.openai.com/v1';

/**
 * OpenAI Codex: `codex exec --json <prompt>`, resumed with `codex exec resume <thread id> <prompt>`.
 * CODEX_HOME is the session's private home (outside the temp dir: see `codexHomesRoot`), with a
 * config.toml naming the `keel` provider (Responses API) and the enabled MCP servers.
 * Sandbox and approvals go through config.toml, not flags, because `exec resume` takes no `--sandbox`:
 * read-only requests get `sandbox_mode = "read-only"`, the others `workspace-write` with the allowed
 * roots writable; `approval_policy = "never"` so nothing ever waits for a human.
 */
export const codexAdapter: AgentAdapter = {
  kind: 'codex',
  binaryNames: ['codex'],
  homesRoot: codexHomesRoot,
  async prepare(context: AgentContext): Promise<AgentInvocation> {
    const { request, home } = context;
    await writeFile(join(home, 'config.toml'), codexConfigOf(context), { mode: 0o600 });
    const images = await writeImages(home, request.images);
    const apiKey = request.model.apiKey ?? context.env.OPENAI_API_KEY;
    const common = ['--json', '--skip-git-repo-check', ...images.flatMap((path) => ['--image', path])];
    const prompt = promptOf(request);
    return {
      args: request.resumeSessionId ? ['exec', 'resume', ...common] : ['exec', ...common],
      // `--` so a prompt that starts with a dash is not read as a flag.
      tail: request.resumeSessionId ? ['--', request.resumeSessionId, prompt] : ['--', prompt],
      env: { HOME: home, CODEX_HOME: home, ...(apiKey ? { [codexKeyVariable]: apiKey } : {}) },
    };
  },
  createMapper: (context) => new CodexEventMapper(context.workdirs),
};

/** The TOML of config.toml (smol-toml quotes and escapes every string and key). */
export function codexConfigOf(context: AgentContext): string {
  const { request } = context;
  const hasKey = Boolean(request.model.apiKey ?? context.env.OPENAI_API_KEY);
  const config: Record<string, unknown> = {
    ...(context.model ? { model: context.model } : {}),
    model_provider: 'keel',
    approval_policy: 'never',
    sandbox_mode: request.readOnly ? 'read-only' : 'workspace-write',
    ...(!request.readOnly && request.allowedRoots?.length
      ? { sandbox_workspace_write: { writable_roots: request.allowedRoots } }
      : {}),
    model_providers: {
      keel: {
        name: 'Keel',
        base_url: request.model.baseUrl || defaultBaseUrl,
        ...(hasKey ? { env_key: codexKeyVariable } : {}),
        wire_api: 'responses',
      },
    },
  };
  const servers = request.mcpServers.filter((server) => server.enabled);
  if (servers.length > 0) {
    config.mcp_servers = Object.fromEntries(
      servers.map((server) => [server.name, { command: server.command, args: server.args, env: server.env }]),
    );
  }
  return stringify(config);
}
