import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promptOf } from '../keel-request.ts';
import {
  type AgentAdapter,
  type AgentContext,
  type AgentInvocation,
  baseUrlWithout,
  writeImages,
} from './agent.ts';
import { withImages } from './claude-code.ts';
import { GeminiEventMapper } from './gemini-events.ts';

/**
 * Gemini CLI: `gemini --prompt=<prompt> --output-format stream-json`, resumed with `--resume <session id>`.
 * HOME is the private home, whose `.gemini/settings.json` selects API-key auth (without it Gemini CLI exits
 * "Invalid auth method selected"), turns off usage statistics and update checks, and lists the MCP servers;
 * the model is reached through `GOOGLE_GEMINI_BASE_URL` and `GEMINI_API_KEY`. `--skip-trust` because a
 * headless run in an untrusted folder exits at once. Read-only requests use `--approval-mode plan`; the others
 * `yolo`: `auto_edit` leaves the shell tool out, and a coding todo needs to run the tests.
 * `--prompt=` with `=` so a prompt starting with a dash is not read as a flag.
 */
export const geminiAdapter: AgentAdapter = {
  kind: 'gemini',
  binaryNames: ['gemini'],
  async prepare(context: AgentContext): Promise<AgentInvocation> {
    const { request, home, model } = context;
    const settingsDir = join(home, '.gemini');
    await mkdir(settingsDir, { recursive: true });
    await writeFile(
      join(settingsDir, 'settings.json'),
      `${JSON.stringify(geminiSettingsOf(context), null, 2)}\n`,
      {
        mode: 0o600,
      },
    );
    const images = await writeImages(home, request.images);
    const roots = [...(request.allowedRoots ?? []), ...(images.length ? [join(home, 'images')] : [])];
    const apiKey = request.model.apiKey ?? context.env.GEMINI_API_KEY;
    return {
      args: [
        '--output-format',
        'stream-json',
        '--skip-trust',
        '--approval-mode',
        request.readOnly ? 'plan' : 'yolo',
        ...(model ? ['--model', model] : []),
        ...(request.resumeSessionId ? ['--resume', request.resumeSessionId] : []),
        ...roots.flatMap((root) => ['--include-directories', root]),
      ],
      tail: [`--prompt=${withImages(promptOf(request), images)}`],
      env: {
        HOME: home,
        ...(apiKey ? { GEMINI_API_KEY: apiKey } : {}),
        ...(request.model.baseUrl
          ? { GOOGLE_GEMINI_BASE_URL: baseUrlWithout(request.model.baseUrl, ['/v1beta', '/v1']) }
          : {}),
      },
    };
  },
  createMapper: (context) =>
    new GeminiEventMapper(
      context.workdirs,
      context.request.mcpServers.filter((server) => server.enabled).map((server) => server.name),
    ),
};

export function geminiSettingsOf(context: AgentContext): Record<string, unknown> {
  const servers = context.request.mcpServers.filter((server) => server.enabled);
  return {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    ...(servers.length > 0
      ? {
          mcpServers: Object.fromEntries(
            servers.map((server) => [
              server.name,
              { command: server.command, args: server.args, env: server.env },
            ]),
          ),
        }
      : {}),
  };
}
