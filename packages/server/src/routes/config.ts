import { configStatus, configUpdate, type EffectiveConfig, effectiveConfig } from '@keel/protocol/runtime';
import {
  type ConfigReport,
  configFileAt,
  loadConfigReport,
  type RuntimeOptions,
  sandboxStatus,
} from '@keel/runtime';

import { globalConfigPath, hideSecrets, readEnv } from '@keel/runtime/internal';
import { responses } from '@keel/service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { applyConfigUpdate } from '../config-update.ts';
import { modelReadiness } from '../model-readiness.ts';
import type { RuntimePool } from '../runtime-pool.ts';

export interface ConfigRouteOptions {
  /** The user's runtime directory, holding the global `config.json`. */
  runtimeDir: string;
  /** The environment the server's runtimes read. */
  env: NodeJS.ProcessEnv;
  /** The server's own runtime options: the embedding caller's model defaults. */
  runtime?: RuntimeOptions | undefined;
}

/**
 * `GET /config` (the effective configuration, global under the server workdir's project file, secrets
 * hidden), `PUT /config` (model, thinking and breaker settings into the global file) and
 * `GET /config/status` (whether a run has what it needs).
 */
export function configRoutes(pool: RuntimePool, options: ConfigRouteOptions): FastifyPluginAsyncZod {
  // Shared with the skills routes, which write the same file: their updates queue instead of racing.
  const globalFile = configFileAt(globalConfigPath(options.runtimeDir));
  const trust = options.runtime?.trustProjectConfig;
  const report = () => loadConfigReport(options.runtimeDir, pool.workdir, trust);
  // The effective configuration is an object, and stays one with its secrets hidden.
  const effective = () => hideSecrets(report().config) as EffectiveConfig;
  return async (app) => {
    const tags = ['config'];
    app.get(
      '/config',
      {
        schema: {
          tags,
          operationId: 'getConfig',
          summary: "The effective configuration (global under the workdir's project file), secrets hidden",
          response: responses(effectiveConfig, 400),
        },
      },
      async () => effective(),
    );

    app.put(
      '/config',
      {
        schema: {
          tags,
          operationId: 'updateConfig',
          summary: 'Set the model, thinking and circuit breaker settings in the global file (null: remove)',
          body: configUpdate,
          response: responses(effectiveConfig, 400),
        },
      },
      async (request) => {
        await globalFile.update((current) => applyConfigUpdate(current, request.body));
        return effective();
      },
    );

    const status = {
      tags,
      operationId: 'getConfigStatus',
      summary: 'Whether a run has what it needs, the sandbox, and what the project file could not set',
      response: responses(configStatus, 400),
    };
    app.get('/config/status', { schema: status }, async () => {
      const { config, ...project } = report();
      return {
        ...modelReadiness(config, readEnv(options.env), options.runtime ?? {}),
        sandbox: sandboxStatus(config.sandbox),
        project_config: projectConfigStatus(project),
      };
    });
  };
}

/**
 * What the workdir's project file asked for that did not apply (an untrusted folder), and how to trust
 * it: the project's own `.runtime/config.json` applies its security-relevant keys only in a trusted folder
 * (docs/decisions/2026-11-26-trusted-folders.md).
 */
function projectConfigStatus(project: Omit<ConfigReport, 'config'>) {
  return {
    file: project.projectFile,
    trusted: project.trusted,
    ignored: project.ignored.map(({ key, value, kind, why }) => ({ key, value, kind, why })),
    ...(project.ignored.length > 0
      ? {
          how_to_trust: `keel trust ${JSON.stringify(project.projectDir)} (approves that file as it is now, in the global config.json; a later change needs approving again), or start keel-web with --trust-project-config`,
        }
      : {}),
  };
}
