import {
  type AgentCapabilities,
  type ClientContext,
  type McpServerStdio,
  type NewSessionRequest,
  PROTOCOL_VERSION,
  type SessionConfigOption,
} from '@agentclientprotocol/sdk';
import type { RunnerRequest } from '../contract.ts';

export interface OpenedSession {
  sessionId: string;
  capabilities: AgentCapabilities;
  /** The earlier session asked for, when the agent could not load it (a new session stands in). */
  notLoaded?: string;
}

/** Mode values that let an agent look but not change (opencode's 'plan' disallows its edit tools). */
const readOnlyModes = ['read-only', 'readonly', 'read_only', 'plan'];

/**
 * `initialize` (ACP v1, the client offers fs read/write and no terminal), then `session/load` of the
 * request's earlier session when the agent can load sessions, else `session/new`. `setLoading` brackets the
 * load, whose replay of the old conversation is history, not this run's events. The model and, for a
 * read-only request, a read-only mode are chosen when the agent offers them as session config options.
 */
export async function openSession(
  agent: ClientContext,
  request: RunnerRequest,
  mcpServers: McpServerStdio[],
  setLoading: (loading: boolean) => void,
): Promise<OpenedSession> {
  const init = await agent.request('initialize', {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
    clientInfo: { name: 'keel-workbench', version: '0.1.0' },
  });
  if (init.protocolVersion !== PROTOCOL_VERSION) {
    throw new Error(
      `the agent speaks ACP version ${init.protocolVersion}; the workbench speaks ${PROTOCOL_VERSION}`,
    );
  }
  const capabilities = init.agentCapabilities ?? {};
  const additional = request.allowedRoots?.length ? { additionalDirectories: [...request.allowedRoots] } : {};
  const base: NewSessionRequest = { cwd: request.workdir, mcpServers, ...additional };
  const resume = request.resumeSessionId;
  if (resume && capabilities.loadSession) {
    setLoading(true);
    try {
      const loaded = await agent.request('session/load', { ...base, sessionId: resume });
      await configure(agent, resume, loaded?.configOptions ?? [], request);
      return { sessionId: resume, capabilities };
    } catch (error) {
      // An unknown or expired session: go on in a new one, briefed (below) on what the old one was about.
      if (!isProtocolError(error)) throw error;
    } finally {
      setLoading(false);
    }
  }
  const created = await agent.request('session/new', base);
  await configure(agent, created.sessionId, created.configOptions ?? [], request);
  return { sessionId: created.sessionId, capabilities, ...(resume ? { notLoaded: resume } : {}) };
}

/** Best effort: an agent that refuses a config option still runs, with its own choice. */
async function configure(
  agent: ClientContext,
  sessionId: string,
  options: SessionConfigOption[],
  request: RunnerRequest,
): Promise<void> {
  const model = request.model.model || request.config.model;
  const choices: Array<[SessionConfigOption, string | undefined]> = [];
  for (const option of options) {
    if (option.type !== 'select') continue;
    const values = valuesOf(option);
    if (option.category === 'model' && model) {
      const same = (value: string) => value === model || value.endsWith(`/${model}`);
      choices.push([option, same(option.currentValue) ? undefined : values.find(same)]);
    }
    if (option.category === 'mode' && request.readOnly) {
      choices.push([option, readOnlyModes.find((mode) => values.includes(mode))]);
    }
  }
  for (const [option, value] of choices) {
    if (!value || value === (option as { currentValue?: string }).currentValue) continue;
    await agent
      .request('session/set_config_option', { sessionId, configId: option.id, value })
      .catch(() => undefined);
  }
}

function valuesOf(option: Extract<SessionConfigOption, { type: 'select' }>): string[] {
  return option.options.flatMap((entry) =>
    'options' in entry ? entry.options.map((inner) => inner.value) : [entry.value],
  );
}

/** A JSON-RPC error answered by the agent (as opposed to the connection or process going away). */
export function isProtocolError(error: unknown): error is Error & { code: number; data?: unknown } {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'number';
}
