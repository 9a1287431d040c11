import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promptOf } from '../keel-request.ts';
import { type AgentAdapter, type AgentContext, type AgentInvocation, writeImages } from './agent.ts';
import { OpencodeEventMapper } from './opencode-events.ts';

/** opencode substitutes `{env:…}` in its config: the key stays in the environment, never on disk. */
export const opencodeKeyVariable = 'KEEL_OPENCODE_API_KEY';
const defaultBaseUrl = 'https://api.openai.com/v1';

/**
 * opencode: `opencode run --format json <prompt>`, resumed with `--session <id>`. Its config is an
 * `opencode.json` in the private home (`OPENCODE_CONFIG`), XDG dirs point into the home, and the provider
 * `keel` is OpenAI-compatible (chat completions). `--title` is always given: without it opencode first asks
 * the model for a title, a request that races the real one. Read-only requests run its `plan` agent with
 * edits and commands denied; the others allow edits and commands (nothing may wait for a human).
 */
export const opencodeAdapter: AgentAdapter = {
  kind: 'opencode',
  binaryNames: ['opencode'],
  async prepare(context: AgentContext): Promise<AgentInvocation> {
    const { request, home } = context;
    const configFile = join(home, 'opencode.json');
    await writeFile(configFile, `${JSON.stringify(opencodeConfigOf(context), null, 2)}\n`, { mode: 0o600 });
    const xdg = {
      config: join(home, '.config'),
      data: join(home, '.local', 'share'),
      cache: join(home, '.cache'),
    };
    await Promise.all(Object.values(xdg).map((dir) => mkdir(dir, { recursive: true })));
    const images = await writeImages(home, request.images);
    const apiKey = request.model.apiKey ?? context.env.OPENAI_API_KEY;
    return {
      args: [
        'run',
        '--format',
        'json',
        ...(request.resumeSessionId
          ? ['--session', request.resumeSessionId]
          : ['--title', titleOf(request.prompt)]),
        ...(request.readOnly ? ['--agent', 'plan'] : []),
        ...images.flatMap((path) => ['--file', path]),
      ],
      tail: [promptArgumentOf(promptOf(request))],
      env: {
        HOME: home,
        XDG_CONFIG_HOME: xdg.config,
        XDG_DATA_HOME: xdg.data,
        XDG_CACHE_HOME: xdg.cache,
        XDG_STATE_HOME: join(home, '.local', 'state'),
        OPENCODE_CONFIG: configFile,
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        // The provider is our own: models.dev's catalogue adds nothing and costs a request.
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        ...(apiKey ? { [opencodeKeyVariable]: apiKey } : {}),
      },
    };
  },
  createMapper: (context) =>
    new OpencodeEventMapper(
      context.workdirs,
      context.request.mcpServers.filter((server) => server.enabled).map((server) => server.name),
    ),
};

export function opencodeConfigOf(context: AgentContext): Record<string, unknown> {
  const { request, model } = context;
  const hasKey = Boolean(request.model.apiKey ?? context.env.OPENAI_API_KEY);
  const servers = request.mcpServers.filter((server) => server.enabled);
  const allow = request.readOnly ? 'deny' : 'allow';
  return {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      keel: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Keel',
        options: {
          baseURL: request.model.baseUrl || defaultBaseUrl,
          ...(hasKey ? { apiKey: `{env:${opencodeKeyVariable}}` } : {}),
        },
        models: model ? { [model]: {} } : {},
      },
    },
    ...(model ? { model: `keel/${model}`, small_model: `keel/${model}` } : {}),
    autoupdate: false,
    share: 'disabled',
    permission: { edit: allow, bash: allow, webfetch: 'allow' },
    ...(servers.length > 0
      ? {
          mcp: Object.fromEntries(
            servers.map((server) => [
              server.name,
              {
                type: 'local',
                command: [server.command, ...server.args],
                environment: server.env,
                enabled: true,
              },
            ]),
          ),
        }
      : {}),
  };
}

/**
 * The prompt as opencode's positional argument. Its parser has no working `--` (the message comes out empty)
 * and reads a leading dash as a flag, so such a prompt gets a leading space, which the model hardly notices.
 */
export function promptArgumentOf(prompt: string): string {
  return prompt.startsWith('-') ? ` ${prompt}` : prompt;
}

/** A short session title from the prompt's first line (opencode shows it in its session list). */
function titleOf(prompt: string): string {
  const line = prompt.trim().split('\n')[0]?.replace(/^-+/, '').trim() || 'Keel workbench task';
  return line.length > 50 ? `${line.slice(0, 49)}…` : line;
}
