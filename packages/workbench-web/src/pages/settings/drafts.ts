import type { McpServer, RunnerConfig, RunnerKind } from '../../api/types.ts';

// The forms edit lists as text: args one per line, env as KEY=value lines. These convert both ways.

let nextKey = 1;
/** A stable React key for a row that has no id of its own yet. */
export const newKey = () => nextKey++;

export function envToText(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([name, value]) => `${name}=${value}`)
    .join('\n');
}

export function textToEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (line.trim() && at > 0) env[line.slice(0, at).trim()] = line.slice(at + 1);
  }
  return env;
}

export function textToLines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

/** An MCP server as the form edits it. */
export interface McpDraft {
  key: number;
  name: string;
  command: string;
  args: string;
  env: string;
  enabled: boolean;
}

export function mcpToDraft(server: McpServer): McpDraft {
  return {
    key: newKey(),
    name: server.name,
    command: server.command,
    args: server.args.join('\n'),
    env: envToText(server.env),
    enabled: server.enabled,
  };
}

export function mcpFromDraft(draft: McpDraft): McpServer {
  return {
    name: draft.name.trim(),
    command: draft.command.trim(),
    args: textToLines(draft.args),
    env: textToEnv(draft.env),
    enabled: draft.enabled,
  };
}

/** A runner config as the form edits it. */
export interface RunnerDraft {
  key: number;
  id: string;
  name: string;
  kind: RunnerKind;
  binaryPath: string;
  model: string;
  extraArgs: string;
  env: string;
}

export function runnerToDraft(config: RunnerConfig): RunnerDraft {
  return {
    key: newKey(),
    id: config.id,
    name: config.name,
    kind: config.kind,
    binaryPath: config.binary_path ?? '',
    model: config.model ?? '',
    extraArgs: config.extra_args.join('\n'),
    env: envToText(config.env),
  };
}

/** Empty optional fields are left out: the service refuses an empty binary path or model. */
export function runnerFromDraft(draft: RunnerDraft): RunnerConfig {
  const config: RunnerConfig = {
    id: draft.id.trim(),
    name: draft.name.trim(),
    kind: draft.kind,
    extra_args: textToLines(draft.extraArgs),
    env: textToEnv(draft.env),
  };
  if (draft.binaryPath.trim()) config.binary_path = draft.binaryPath.trim();
  if (draft.model.trim()) config.model = draft.model.trim();
  return config;
}

export function emptyRunner(): RunnerDraft {
  return { key: newKey(), id: '', name: '', kind: 'keel', binaryPath: '', model: '', extraArgs: '', env: '' };
}
