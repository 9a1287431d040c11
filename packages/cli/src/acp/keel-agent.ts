import { realpathSync } from 'node:fs';
import {
  type AgentApp,
  type AgentContext,
  type AvailableCommand,
  agent,
  type ClientCapabilities,
  type ContentBlock,
  type McpServer,
  PROTOCOL_VERSION,
  type PromptResponse,
  RequestError,
  type RequestPermissionRequest,
  type SessionInfo,
  type SessionUpdate,
  type StopReason,
} from '@agentclientprotocol/sdk';
import {
  createRuntime,
  type EditorFiles,
  KeelError,
  type Runtime,
  type RuntimeEvent,
  toErrorObject,
  type UnconfinedCommands,
} from '@keel/runtime';
import { readEnv } from '@keel/runtime/internal';
import { editorFilesOf } from './editor-files.ts';
import { mcpCapabilities, mcpServerOf } from './mcp-servers.ts';
import { readOnlyRefusal } from './mode-tools.ts';
import { choicesOf, replayOf, restoreChoices } from './replay.ts';
import {
  availableModels,
  configOptionsOf,
  isModeId,
  modesOf,
  runRequestOf,
  type SessionChoices,
} from './session-options.ts';
import { availableCommands, runSlashCommand } from './slash-commands.ts';
import { ToolUpdates } from './tool-updates.ts';
import { Transcripts } from './transcript.ts';
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
  /** The slash commands last advertised (`available_commands_update`). */
  commands: AvailableCommand[];
  /** Sends an update to the editor and keeps it in the session's transcript. */
  show(update: SessionUpdate): Promise<void>;
  /** The editor, to ask (permissions). */
  client(): AgentContext;
  /** The editor as the file tools' view (`editorFilesOf`), for the diffs the editor is shown. */
  editorFiles?: EditorFiles;
}

/** The title a session has until its first prompt names it. */
const untitled = 'Editor session';
/** Sessions per `session/list` page. */
const listPage = 50;

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

  const transcripts = new Transcripts(readEnv(options.env).home);

  /** A session made live in this process: its runtime, its choices as last left, its commands told. */
  const open = async (
    id: string,
    workdir: string,
    mcpServers: McpServer[] | undefined,
  ): Promise<AcpSession> => {
    const choices: SessionChoices = {
      mode: 'default',
      models: await availableModels(options.env, workdir),
    };
    restoreChoices(choices, choicesOf(transcripts.read(id)));
    const editor = editorFilesOf(() => clientContext, id, capabilities.fs);
    const runtime = createRuntime({
      env: options.env,
      workdir,
      ...(options.unconfinedCommands ? { unconfinedCommands: options.unconfinedCommands } : {}),
      mcpServers: (mcpServers ?? []).flatMap(mcpServerOf),
      ...editor,
    });
    const session: AcpSession = {
      ...editor,
      id,
      workdir,
      alwaysAllowed: new Set(),
      modelNote: () => untrustedModelNote(options.env, workdir),
      choices,
      runtime,
      commands: [],
      async show(update) {
        transcripts.append(id, update);
        await clientContext?.notify('session/update', { sessionId: id, update });
      },
      client() {
        if (!clientContext) throw new Error('keel acp has no editor connected');
        return clientContext;
      },
    };
    const earlier = sessions.get(id);
    if (earlier) void closeSession(earlier);
    sessions.set(id, session);
    return session;
  };

  /** Tells the editor the session's slash commands, again whenever they changed (a skill added, say). */
  const tellCommands = async (session: AcpSession): Promise<void> => {
    const commands = await availableCommands(session.runtime, session.workdir);
    if (JSON.stringify(commands) === JSON.stringify(session.commands)) return;
    session.commands = commands;
    await clientContext?.notify('session/update', {
      sessionId: session.id,
      update: { sessionUpdate: 'available_commands_update', availableCommands: commands },
    });
  };

  /** A known session of this RUNTIME_HOME, checked to belong to the folder the editor names. */
  const stored = (sessionId: string, cwd: string) => {
    let record: ReturnType<typeof base.sessions.get>;
    try {
      record = base.sessions.get(sessionId);
    } catch (error) {
      throw RequestError.invalidParams({ sessionId }, toErrorObject(error).message);
    }
    const workdir = workdirOf(cwd);
    // A session's files, trust and history are its folder's: loaded elsewhere it would run on other files.
    if (record.workdir && record.workdir !== workdir) {
      throw RequestError.invalidParams(
        { sessionId, cwd, sessionCwd: record.workdir },
        `Session ${sessionId} works in ${record.workdir}, not ${workdir}: load it with that cwd, or start a new session here.`,
      );
    }
    return { record, workdir };
  };

  /** What a new, loaded, resumed or forked session answers: its modes and options. */
  const stateOf = (session: AcpSession) => ({
    modes: modesOf(session.choices),
    configOptions: configOptionsOf(session.choices),
  });

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
          sessionCapabilities: { list: {}, resume: {}, close: {}, fork: {} },
        },
        agentInfo: { name: 'keel', title: 'Keel', version: options.version },
        authMethods: [],
      };
    })
    .onRequest('session/new', async ({ params }) => {
      oneFolder(params.additionalDirectories);
      const workdir = workdirOf(params.cwd);
      const record = base.sessions.create({ workdir, title: untitled });
      const session = await open(record.id, workdir, params.mcpServers);
      scheduleCommands(session);
      return { sessionId: record.id, ...stateOf(session) };
    })
    .onRequest('session/load', async ({ params, client }) => {
      oneFolder(params.additionalDirectories);
      const { workdir } = stored(params.sessionId, params.cwd);
      const session = await open(params.sessionId, workdir, params.mcpServers);
      const history = replayOf(
        transcripts.read(params.sessionId),
        base.sessions.conversation(params.sessionId),
      );
      for (const update of history) {
        await client.notify('session/update', { sessionId: params.sessionId, update });
      }
      scheduleCommands(session);
      return stateOf(session);
    })
    .onRequest('session/resume', async ({ params }) => {
      // As load, without the history: the editor still shows it.
      oneFolder(params.additionalDirectories);
      const { workdir } = stored(params.sessionId, params.cwd);
      const session =
        sessions.get(params.sessionId) ?? (await open(params.sessionId, workdir, params.mcpServers));
      scheduleCommands(session);
      return stateOf(session);
    })
    // session/fork is in ACP's unstable schema only: its params are checked here (forkParamsOf).
    .onRequest('session/fork', forkParamsOf, async ({ params }) => {
      oneFolder(params.additionalDirectories);
      const { record, workdir } = stored(params.sessionId, params.cwd);
      // A fork is a new session with the conversation so far: its runs continue from it, the origin's go on alone.
      const fork = base.sessions.create({ workdir, title: `${record.title} (fork)`, model: record.model });
      for (const message of base.sessions.conversation(record.id)) base.sessions.append(fork.id, message);
      transcripts.copy(record.id, fork.id);
      const session = await open(fork.id, workdir, params.mcpServers);
      scheduleCommands(session);
      return { sessionId: fork.id, ...stateOf(session) };
    })
    .onRequest('session/close', async ({ params }) => {
      const session = sessionOf(params.sessionId);
      sessions.delete(session.id);
      transcripts.flush(session.id);
      await closeSession(session);
      return {};
    })
    .onRequest('session/list', ({ params }) => {
      const offset = offsetOf(params.cursor);
      const filter = params.cwd ? { workdir: workdirOf(params.cwd), offset } : { offset };
      const page = base.sessions.list(listPage + 1, filter);
      const result: { sessions: SessionInfo[]; nextCursor?: string } = {
        sessions: page.slice(0, listPage).map((record) => ({
          sessionId: record.id,
          cwd: record.workdir,
          title: record.title,
          updatedAt: `${record.updated_at}Z`,
        })),
      };
      if (page.length > listPage) result.nextCursor = String(offset + listPage);
      return result;
    })
    .onRequest('session/set_mode', async ({ params }) => {
      const session = sessionOf(params.sessionId);
      if (!isModeId(params.modeId)) {
        throw RequestError.invalidParams(
          { modeId: params.modeId },
          `Unknown mode ${params.modeId}: use default or read-only.`,
        );
      }
      session.choices.mode = params.modeId;
      transcripts.append(session.id, { sessionUpdate: 'current_mode_update', currentModeId: params.modeId });
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
      const configOptions = configOptionsOf(session.choices);
      transcripts.append(session.id, { sessionUpdate: 'config_option_update', configOptions });
      return { configOptions };
    })
    .onRequest('session/prompt', async ({ params }) => {
      const session = sessionOf(params.sessionId);
      if (session.turn) {
        throw RequestError.invalidRequest(
          { sessionId: session.id },
          'A prompt turn is already running in this session: wait for it or cancel it.',
        );
      }
      const prompt = promptOf(params.prompt);
      session.turn = new AbortController();
      try {
        // Kept for a later load, not echoed: the editor shows what its user sent itself.
        for (const block of params.prompt) {
          transcripts.append(session.id, { sessionUpdate: 'user_message_chunk', content: block });
        }
        await nameSession(session, prompt.text);
        const command = await runSlashCommand(
          prompt.text,
          session.commands,
          session.runtime,
          session.workdir,
          session.choices.mode === 'read-only',
        );
        if (command?.kind === 'answer') {
          await session.show({
            sessionUpdate: 'agent_message_chunk',
            content: { type: 'text', text: command.text },
          });
          return { stopReason: 'end_turn' };
        }
        const asked = command ? { ...prompt, text: command.text } : prompt;
        return await promptTurn(session, asked, session.turn.signal);
      } finally {
        session.turn = undefined;
        transcripts.flush(session.id);
        // A turn may have added a skill or changed the configuration.
        scheduleCommands(session);
      }
    })
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.turn?.abort();
    });

  /** Commands are told after the answer that made the session live (an editor ignores updates for a session it does not know yet). */
  function scheduleCommands(session: AcpSession): void {
    setImmediate(() => {
      tellCommands(session).catch((error: unknown) => options.log(`commands of ${session.id}: ${error}`));
    });
  }

  /** The first prompt names an untitled session, in the store and in the editor. */
  async function nameSession(session: AcpSession, text: string): Promise<void> {
    const record = base.sessions.get(session.id);
    const title = text.split('\n', 1)[0]!.trim().slice(0, 80);
    if (record.title !== untitled || !title) return;
    const updated = base.sessions.update(session.id, { title });
    await session.show({ sessionUpdate: 'session_info_update', title, updatedAt: `${updated.updated_at}Z` });
  }

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
  { text, images }: { text: string; images: { data: string; media_type: string }[] },
  signal: AbortSignal,
): Promise<PromptResponse> {
  const updates = new ToolUpdates(
    session.workdir,
    session.choices.mode === 'read-only' ? (name) => readOnlyRefusal(name) : undefined,
    session.editorFiles,
  );
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
          for (const update of await updates.of(event)) await session.show(update);
          if (event.type === 'circuit_breaker') breaker = event.reason;
          if (event.type === 'interaction_request') await decide(session, event, signal, updates);
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
  await session.show(announced.update);
  const params: RequestPermissionRequest = {
    sessionId: session.id,
    toolCall: { ...announced.toolCall, title: event.prompt },
    options: [
      { optionId: allowOnce, name: 'Allow', kind: 'allow_once' },
      { optionId: allowAlways, name: `Always allow ${tool} in this session`, kind: 'allow_always' },
      { optionId: rejectOnce, name: 'Reject', kind: 'reject_once' },
    ],
  };
  const answer = await session
    .client()
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

/** Keel works in one folder (`cwd`): other folders asked for are refused, not ignored. */
function oneFolder(additional: readonly string[] | null | undefined): void {
  if (!additional?.length) return;
  throw RequestError.invalidParams(
    { additionalDirectories: additional },
    'keel acp works in one folder, cwd: additionalDirectories are not supported. Open a folder that holds them all as cwd.',
  );
}

/** `session/fork`'s params (ForkSessionRequest): a session, the folder it works in, MCP servers as in session/new. */
function forkParamsOf(params: unknown): {
  sessionId: string;
  cwd: string;
  mcpServers: McpServer[];
  additionalDirectories?: string[];
} {
  const { sessionId, cwd, mcpServers, additionalDirectories } = (params ?? {}) as Record<string, unknown>;
  const servers = mcpServers ?? [];
  const wellFormed =
    typeof sessionId === 'string' &&
    typeof cwd === 'string' &&
    Array.isArray(servers) &&
    servers.every(
      (server) =>
        typeof server?.name === 'string' &&
        (typeof server.command === 'string' || typeof server.url === 'string'),
    ) &&
    (additionalDirectories == null ||
      (Array.isArray(additionalDirectories) &&
        additionalDirectories.every((dir) => typeof dir === 'string')));
  if (!wellFormed) {
    throw RequestError.invalidParams(
      { method: 'session/fork' },
      'session/fork takes sessionId and cwd (strings), and optionally mcpServers as session/new does.',
    );
  }
  return {
    sessionId,
    cwd,
    mcpServers: servers as McpServer[],
    ...(additionalDirectories ? { additionalDirectories: additionalDirectories as string[] } : {}),
  };
}

/** `session/list`'s cursor: where the next page starts, as this agent wrote it. */
function offsetOf(cursor: string | null | undefined): number {
  if (cursor == null) return 0;
  const offset = Number(cursor);
  if (!/^\d{1,9}$/.test(cursor) || !Number.isSafeInteger(offset)) {
    throw RequestError.invalidParams(
      { cursor },
      'Unknown cursor: pass the nextCursor of the previous session/list answer.',
    );
  }
  return offset;
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
