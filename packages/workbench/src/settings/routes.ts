import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrivileged, responses } from '../http/index.ts';
import type { RunnerRegistry } from '../runners/index.ts';
import { connectionTestBody, testConnection } from './connection-test.ts';
import { checkMcpServer } from './mcp-health.ts';
import { programChanges } from './program-changes.ts';
import { settingsUpdateSchema } from './schema.ts';
import type { SettingsService } from './settings-service.ts';

// The protocol's body with the service's own check: named in the OpenAPI document as the protocol's would be.
wire.workbenchComponents.add(settingsUpdateSchema, { id: 'SettingsUpdate' });

/**
 * `GET /api/settings`, `PUT /api/settings` (partial; api_key, github_token and gitlab_token are write-only:
 * answered as api_key_set / github_token_set / gitlab_token_set; each is bound to the URL it was saved with, and `cleared_secrets` names
 * those a URL change removed) and `GET /api/settings/check` ({ready, missing, reasons, runners}).
 */
export function settingsRoutes(settings: SettingsService, runners: RunnerRegistry): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['settings'];
    app.get(
      '/api/settings',
      {
        schema: {
          tags,
          operationId: 'getSettings',
          summary: 'The settings, each secret shown only as whether it is set',
          response: responses(wire.settings),
        },
      },
      async () => settings.view(),
    );
    app.put(
      '/api/settings',
      {
        schema: {
          tags,
          operationId: 'updateSettings',
          summary: 'Change the settings given (null clears one)',
          description:
            'Changes the fields given. A null model, base_url, api_key, github_token or gitlab_token clears it. ' +
            'A secret is bound to its URL: changing base_url (github_api_url, gitlab_api_url) without api_key ' +
            '(github_token, gitlab_token) in the same ' +
            'request removes the stored secret, named in `cleared_secrets` with a `message`. ' +
            "Changing what a runner or an MCP server runs (a runner's kind, binary_path, extra_args, env; a " +
            "server's command, args, env, or turning one on) is 403 PERMISSION_DENIED from another origin " +
            "than the workbench's own, unless the request carries the API key.",
          body: settingsUpdateSchema,
          response: responses(wire.settings, 400, 403, 422),
        },
      },
      async (request) => {
        const current = {
          runners: await settings.runnerConfigs(),
          servers: (await settings.stored()).mcp_servers,
        };
        requirePrivileged(request, programChanges(current, request.body));
        return settings.update(request.body);
      },
    );
    app.post(
      '/api/settings/test-connection',
      {
        schema: {
          tags,
          operationId: 'testConnection',
          summary: 'Test the model endpoint: list its models with the key',
          description:
            "Calls GET {base_url}/models with the key, and the server's own API for each model's context window " +
            '(Ollama, llama.cpp, LM Studio): {ok, base_url, models, model_found?, server?, model_details?: ' +
            '[{id, context_length?, tools?}], error?: {message}}. ' +
            'The body may override base_url, api_key and model to test unsaved values; the saved key is sent ' +
            'only to the base_url it was saved for.',
          body: connectionTestBody.nullish(),
          response: responses(wire.connectionTest, 400),
        },
      },
      async (request) => testConnection(settings, request.body ?? {}),
    );
    app.post(
      '/api/settings/mcp-servers/:name/health',
      {
        schema: {
          tags,
          operationId: 'checkMcpServer',
          summary: 'Start an MCP server as the runners would, list its tools and stop it',
          description:
            'Starts the named MCP server as the runners would (stdio, its command, args and env), lists its tools and stops it: {name, ok, tool_count, tools, error?: {message}} within 15 s. A POST: it starts a program.',
          params: z.object({ name: z.string().min(1).max(200) }),
          response: responses(wire.mcpHealth, 404),
        },
      },
      async (request) => checkMcpServer(await settings.mcpServer(request.params.name)),
    );
    app.get(
      '/api/settings/check',
      {
        schema: {
          tags,
          operationId: 'checkSettings',
          summary: 'Whether AI actions can run, and what is missing',
          description:
            'Whether AI actions can run: what is missing (e.g. "model", or a secret a URL change removed), ' +
            "why (`reasons`), and each runner config's availability.",
          response: responses(wire.settingsCheck),
        },
      },
      async () => ({
        ...(await settings.check()),
        runners: await runners.check(await settings.runnerConfigs()),
      }),
    );
  };
}
