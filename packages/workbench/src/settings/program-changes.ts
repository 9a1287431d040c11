import { isDeepStrictEqual } from 'node:util';
import type { RunnerConfig } from '../runners/index.ts';
import { type McpServerSetting, maskedValue, type SettingsUpdate } from './schema.ts';

/** What the settings hold now: every runner config (the user's and the built-in ones), the MCP servers. */
export interface ProgramSettings {
  runners: RunnerConfig[];
  servers: McpServerSetting[];
}

/**
 * The fields of a settings update that choose a program the workbench runs and differ from what is set
 * now, by path (`runner_configs.0.binary_path`, `mcp_servers.1.command`): a runner's kind, binary_path,
 * extra_args and env; an MCP server's command, args and env, and turning one on. A client that sends the
 * settings back unchanged (as the browser app's form does) changes none of them. An empty list: an
 * ordinary update, which any allowed origin may make.
 */
export function programChanges(current: ProgramSettings, patch: SettingsUpdate): string[] {
  const changed: string[] = [];
  patch.runner_configs?.forEach((config, index) => {
    // A new id is compared with a config of its kind that names nothing: what the built-in one runs.
    const before: Pick<RunnerConfig, 'kind' | 'binary_path' | 'extra_args' | 'env'> = current.runners.find(
      (entry) => entry.id === config.id,
    ) ?? { kind: config.kind, extra_args: [], env: {} };
    const fields = {
      kind: [before.kind, config.kind],
      binary_path: [before.binary_path ?? null, config.binary_path ?? null],
      extra_args: [before.extra_args, config.extra_args],
      env: [before.env, config.env],
    };
    for (const [field, [was, is]] of Object.entries(fields)) {
      if (!isDeepStrictEqual(was, is)) changed.push(`runner_configs.${index}.${field}`);
    }
  });
  patch.mcp_servers?.forEach((server, index) => {
    const before = current.servers.find((entry) => entry.name === server.name);
    // The mask sent back stands for the stored value: unchanged.
    const env = Object.fromEntries(
      Object.entries(server.env).map(([name, value]) => [
        name,
        value === maskedValue && before?.env[name] !== undefined ? before.env[name] : value,
      ]),
    );
    const fields = {
      command: [before?.command ?? null, server.command],
      args: [before?.args ?? [], server.args],
      env: [before?.env ?? {}, env],
      enabled: [before?.enabled ?? false, server.enabled],
    };
    for (const [field, [was, is]] of Object.entries(fields)) {
      // Turning a server off runs nothing: only off → on counts.
      if (field === 'enabled' && is === false) continue;
      if (!isDeepStrictEqual(was, is)) changed.push(`mcp_servers.${index}.${field}`);
    }
  });
  return changed;
}
