import { realpathSync } from 'node:fs';
import {
  type AgentApp,
  type AgentContext,
  agent,
  type ClientCapabilities,
  type ContentBlock,
  type McpServer,
  PROTOCOL_VERSION,
  type PromptResponse,
  RequestError,
  type RequestPermissionRequest,
  type SessionUpdate,
  type StopReason,
} from '@agentclientprotocol/sdk';
import {
  createRuntime,
  KeelError,
  type Runtime,
  type RuntimeEvent,
  toErrorObject,
  type UnconfinedCommands,
} from '@keel/runtime';
import { editorFilesOf } from './editor-files.ts';
import { mcpCapabilities, mcpServerOf } from './mcp-servers.ts';
import { readOnlyRefusal } from './mode-tools.ts';
import {
  availableModels,
  configOptionsOf,
  isModeId,
  modesOf,
  runRequestOf,
  type SessionChoices,
} from './session-options.ts';
import { ToolUpdates } from './tool-updates.ts';
import { untrustedModelNote } from './untrusted-model.ts';

export interface KeelAgentOptions {
  /** The environment runtimes read (model, keys, RUNTIME_HOME). */
  env: NodeJS.ProcessEnv;
  version: string;
  /** Receives what goes wrong outside any request (stderr in `keel acp`: stdout is the protocol). */
  log(line: string): void;
  /**
   * With no sandbox backend, a command that does more than read: asked of the editor (`ask`, the default),
   * or refused (`refuse`) for a client that approves every request, such as the workbench.
   */
  unconfinedCommands?: UnconfinedCommands;
}

/** One ACP session: a Keel session, the runtime its runs use, and what the client allowed for good. */
interface AcpSession {
  id: string;
  workdir: string;
  runtime: Runtime;
  /** Tools the client said "always allow" for in this session. */
  alwaysAllowed: Set<string>;
  /** The mode and model the editor chose. */
  choices: SessionChoices;
  /** The prompt turn in progress: aborting it cancels its run. */
  turn?: AbortController;
  /** What to add to a model error when the folder's config names a model it may not use (untrusted). */
  modelNote: () => string;
}

const allowOnce = 'allow_once';
const allowAlways = 'allow_always';
const rejectOnce = 'reject_once';

/**
 * Keel as an Agent Client Protocol agent (`keel acp`): every ACP session is a durable Keel session, every
 * prompt turn an ordinary run in it (visible to `keel runs`, keel-web and the console), its events streamed
 * as `session/update`s. Approvals become `session/request_permission`, decided on Keel's approval records;
 * `read_file` reads the editor's buffers through `fs/read_text_file` when the client offers it.
 */
export function keelAgent(options: KeelAgentOptions): { app: AgentApp; close(): Promise<void> } {
  const sessions = new Map<string, AcpSession>();
  let capabilities: ClientCapabilities = {};
  let clientContext: AgentContext | undefined;
  // The store and the session records: any runtime over the same RUNTIME_HOME sees the same sessions.
  const base = createRuntime({ env: options.env });

  const open = async (
    id: string,
    workdir: string,
    mcpServers: McpServer[] | undefined,
  ): Promise<AcpSession> => {
    const session: AcpSession = {
      id,
      workdir,
      alwaysAllowed: new Set(),
      modelNote: () => untrustedModelNote(options.env, workdir),
      choices: { mode: 'default', models: await availableModels(options.env, workdir) },
      runtime: createRuntime({
        env: options.env,
        workdir,
        ...(options.unconfinedCommands ? { unconfinedCommands: options.unconfinedCommands } : {}),
        mcpServers: (mcpServers ?? []).flatMap(mcpServerOf),
        ...editorFilesOf(() => clientContext, id, capabilities.fs),
      }),
    };
    const earlier = sessions.get(id);
    if (earlier) void closeSession(earlier);
    sessions.set(id, session);
    return session;
  };
  const sessionOf = (id: string): AcpSession => {
    const session = sessions.get(id);
    if (!session)
      throw RequestError.invalidParams({ sessionId: id }, `Unknown session ${id}: session/load it first.`);
    return session;
  };

  const app = agent({ name: 'keel' })
    .onConnect((connection) => {
      clientContext = connection.client;
    })
    .onRequest('initialize', ({ params }) => {
      capabilities = params.clientCapabilities ?? {};
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, embeddedContext: true },
          mcpCapabilities,
        },
        agentInfo: { name: 'keel', title: 'Keel', version: options.version },
        authMethods: [],
      };
    })
    .onRequest('session/new', async ({ params }) => {
      oneFolder(params.additionalDirectories);
      const workdir = workdirOf(params.cwd);
      const record = base.sessions.create({ workdir, title: 'Editor session' });
      const session = await open(record.id, workdir, params.mcpServers);
      return {
        sessionId: record.id,
        modes: modesOf(session.choices),
        configOptions: configOptionsOf(session.choices),
      };
    })
    .onRequest('session/load', async ({ params, client }) => {
      const history = (() => {
        try {
          return base.sessions.conversation(params.sessionId);
        } catch (error) {
          throw RequestError.invalidParams({ sessionId: params.sessionId }, toErrorObject(error).message);
        }
      })();
      oneFolder(params.additionalDirectories);
      const workdir = workdirOf(params.cwd);
      const { workdir: own } = base.sessions.get(params.sessionId);
      // A session's files, trust and history are its folder's: loaded elsewhere it would run on other files.
      if (own && own !== workdir) {
        throw RequestError.invalidParams(
          { sessionId: params.sessionId, cwd: params.cwd, sessionCwd: own },
          `Session ${params.sessionId} works in ${own}, not ${workdir}: load it with that cwd, or start a new session here.`,
        );
      }
      const session = await open(params.sessionId, workdir, params.mcpServers);
      for (const update of replayOf(history)) {
        await client.notify('session/update', { sessionId: params.sessionId, update });
      }
      return { modes: modesOf(session.choices), configOptions: configOptionsOf(session.choices) };
    })
    .onRequest('session/set_mode', ({ params }) => {
      const session = sessionOf(params.sessionId);
      if (!isModeId(params.modeId)) {
        throw RequestError.invalidParams(
          { modeId: params.modeId },
          `Unknown mode ${params.modeId}: use default or read-only.`,
        );
      }
      session.choices.mode = params.modeId;
      return {};
    })
    .onRequest('session/set_config_option', ({ params }) => {
      const session = sessionOf(params.sessionId);
      const value = 'value' in params ? params.value : undefined;
      if (
        params.configId !== 'model' ||
        typeof value !== 'string' ||
        !session.choices.models.includes(value)
      ) {
        throw RequestError.invalidParams(
          { configId: params.configId, value },
          `Unknown option: the model is one of ${session.choices.models.join(', ') || '(none configured)'}.`,
        );
      }
      session.choices.model = value;
      return { configOptions: configOptionsOf(session.choices) };
    })
    .onRequest('session/prompt', async ({ params, client }) => {
      const session = sessionOf(params.sessionId);
      if (session.turn) {
        throw RequestError.invalidRequest(
          { sessionId: session.id },
          'A prompt turn is already running in this session: wait for it or cancel it.',
        );
      }
      session.turn = new AbortController();
      try {
        return await promptTurn(session, params.prompt, client, session.turn.signal);
      } finally {
        session.turn = undefined;
      }
    })
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.turn?.abort();
    });

  async function closeSession(session: AcpSession): Promise<void> {
    session.turn?.abort();
    await session.runtime.close().catch((error: unknown) => options.log(`closing ${session.id}: ${error}`));
  }

  return {
    app,
    async close() {
      await Promise.all([...sessions.values()].map(closeSession));
      await base.close().catch(() => undefined);
    },
  };
}

/** One prompt turn: a run in the session, its events sent as updates, its approvals asked of the client. */
async function promptTurn(
  session: AcpSession,
  prompt: ContentBlock[],
  client: AgentContext,
  signal: AbortSignal,
): Promise<PromptResponse> {
  const updates = new ToolUpdates(
    session.workdir,
    session.choices.mode === 'read-only' ? (name) => readOnlyRefusal(name) : undefined,
  );
  const send = (update: SessionUpdate) => client.notify('session/update', { sessionId: session.id, update });
  const { text, images } = promptOf(prompt);
  let breaker: string | undefined;
  try {
    await session.runtime.run(
      {
        prompt: text,
        workdir: session.workdir,
        session_id: session.id,
        ...runRequestOf(session.choices),
        ...(images.length ? { images } : {}),
      },
      {
        signal,
        onEvent: async (event: RuntimeEvent) => {
          for (const update of await updates.of(event)) await send(update);
          if (event.type === 'circuit_breaker') breaker = event.reason;
          if (event.type === 'interaction_request') await decide(session, event, client, signal, updates);
        },
      },
    );
    return { stopReason: 'end_turn' };
  } catch (error) {
    if (signal.aborted || (KeelError.is(error) && error.code === 'CANCELLED'))
      return { stopReason: 'cancelled' };
    if (breaker !== undefined) return { stopReason: stopReasonOf(breaker) };
    const { code, message } = toErrorObject(error);
    throw new RequestError(-32603, code === 'MODEL_ERROR' ? message + session.modelNote() : message, {
      code,
    });
  }
}

/** Asks the client to decide an approval (or answers a question it cannot show), on Keel's approval record. */
async function decide(
  session: AcpSession,
  event: Extract<RuntimeEvent, { type: 'interaction_request' }>,
  client: AgentContext,
  signal: AbortSignal,
  updates: ToolUpdates,
): Promise<void> {
  const { approvals } = session.runtime;
  const approval = await approvals.get(event.request_id);
  if (approval.status !== 'pending') return;
  if (event.kind !== 'approval') {
    await approvals.reject(approval.id, { reason: 'the editor cannot answer questions', by: 'acp' });
    return;
  }
  const tool = typeof approval.detail.tool_name === 'string' ? approval.detail.tool_name : 'tool';
  if (session.alwaysAllowed.has(tool)) {
    await approvals.approve(approval.id, { reason: 'always allowed in this editor session', by: 'acp' });
    return;
  }
  const args = (approval.detail.args ?? {}) as Record<string, unknown>;
  const toolCallId =
    typeof approval.detail.tool_call_id === 'string' ? approval.detail.tool_call_id : approval.id;
  // The call is announced first (an editor shows what it is asked about), then asked about with the same
  // id, its kind, where it acts and, for an edit or a write, the change it would make.
  const announced = await updates.announce(toolCallId, tool, args);
  await client.notify('session/update', { sessionId: session.id, update: announced.update });
  const params: RequestPermissionRequest = {
    sessionId: session.id,
    toolCall: { ...announced.toolCall, title: event.prompt },
    options: [
      { optionId: allowOnce, name: 'Allow', kind: 'allow_once' },
      { optionId: allowAlways, name: `Always allow ${tool} in this session`, kind: 'allow_always' },
      { optionId: rejectOnce, name: 'Reject', kind: 'reject_once' },
    ],
  };
  const answer = await client
    .request('session/request_permission', params, { cancellationSignal: signal, stopWaitingOnCancel: true })
    .catch(() => ({ outcome: { outcome: 'cancelled' as const } }));
  const chosen = answer.outcome.outcome === 'selected' ? answer.outcome.optionId : undefined;
  if (chosen === allowAlways) session.alwaysAllowed.add(tool);
  if (chosen === allowOnce || chosen === allowAlways) {
    await approvals.approve(approval.id, { by: 'acp' });
  } else {
    await approvals.reject(approval.id, {
      reason: chosen ? 'rejected in the editor' : 'cancelled',
      by: 'acp',
    });
  }
}

/** The prompt's text (embedded resources and links inlined as context) and its images. */
function promptOf(blocks: ContentBlock[]): {
  text: string;
  images: { data: string; media_type: string }[];
} {
  const parts: string[] = [];
  const images: { data: string; media_type: string }[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'image') images.push({ data: block.data, media_type: block.mimeType });
    else if (block.type === 'resource_link') parts.push(`(See ${block.uri})`);
    else if (block.type === 'resource' && 'text' in block.resource) {
      parts.push(`<context uri="${block.resource.uri}">\n${block.resource.text}\n</context>`);
    } else {
      // Never dropped without a word: the user would think the agent heard it.
      const what = block.type === 'resource' ? `a binary resource (${block.resource.uri})` : block.type;
      throw RequestError.invalidParams(
        { type: block.type },
        `Keel cannot take ${what} in a prompt: send text, images, links or text resources.`,
      );
    }
  }
  const text = parts.join('\n\n').trim();
  if (!text && images.length === 0) {
    throw RequestError.invalidParams(
      { prompt: blocks.length },
      'The prompt is empty: send some text or an image.',
    );
  }
  return { text: text || 'Look at the attached image.', images };
}

/** A loaded session's conversation as the updates a client shows it with. */
function replayOf(history: ReturnType<Runtime['sessions']['conversation']>): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  for (const message of history) {
    const text = typeof message.content === 'string' ? message.content : '';
    if (message.role === 'user' && text) {
      updates.push({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text } });
    } else if (message.role === 'assistant') {
      if (text) updates.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
      for (const call of message.tool_calls ?? []) {
        updates.push({
          sessionUpdate: 'tool_call',
          toolCallId: call.id,
          title: call.name,
          status: 'completed',
        });
      }
    } else if (message.role === 'tool' && message.tool_call_id) {
      updates.push({
        sessionUpdate: 'tool_call_update',
        toolCallId: message.tool_call_id,
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text } }],
      });
    }
  }
  return updates;
}

/** Keel works in one folder (`cwd`): other folders asked for are refused, not ignored. */
function oneFolder(additional: readonly string[] | null | undefined): void {
  if (!additional?.length) return;
  throw RequestError.invalidParams(
    { additionalDirectories: additional },
    'keel acp works in one folder, cwd: additionalDirectories are not supported. Open a folder that holds them all as cwd.',
  );
}

function workdirOf(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    throw RequestError.invalidParams({ cwd }, `cwd ${cwd} is not an existing directory.`);
  }
}

function stopReasonOf(reason: string): StopReason {
  return /token|cost/i.test(reason) ? 'max_tokens' : 'max_turn_requests';
}
