import { Readable, Writable } from 'node:stream';
import { type ClientConnection, ndJsonStream, type PromptResponse } from '@agentclientprotocol/sdk';
import { createPathGuard, type PathGuard, toErrorObject } from '@keel/runtime';
import { agentEnvironment } from '../agent-env.ts';
import { assertRunnerRequest } from '../check-request.ts';
import type {
  Runner,
  RunnerAvailability,
  RunnerConfig,
  RunnerErrorObject,
  RunnerEvent,
  RunnerOutcome,
  RunnerRequest,
  RunnerUsage,
} from '../contract.ts';
import { keelClient } from './acp-client.ts';
import { AcpEventMapper } from './acp-events.ts';
import {
  type AcpRunnerOptions,
  agentEnvOf,
  mcpServersOf,
  memoryOf,
  promptBlocksOf,
  type SessionMemory,
  timeoutOf,
} from './acp-request.ts';
import { isProtocolError, openSession } from './acp-session.ts';
import { AgentProcess, agentCommandOf, agentNameOf, versionOf } from './agent-process.ts';
import { agentStateKey, FirstStarts } from './first-start.ts';
import { commandsPolicyOf } from './permissions.ts';
import { RunGuard, RunStop } from './run-guard.ts';

/**
 * An editor agent over the Agent Client Protocol (default `opencode acp`): one agent process per request, in
 * its own process group, spoken to over stdio, with a minimal environment; Keel plays the editor (permissions
 * by policy: commands refused unless the config's env says KEEL_ACP_COMMANDS=allow; file access confined to
 * the workspace). `runnerSessionId` is the ACP session id.
 *
 * @example
 * const runner = new AcpRunner({ agentsDir });
 * const outcome = await runner.run(request, async (event) => log.append(event));
 */
export class AcpRunner implements Runner {
  readonly kind = 'acp' as const;
  readonly #options: AcpRunnerOptions;
  /** What each session of this process was about, to brief a new session when an old one cannot load. */
  readonly #memories = new Map<string, SessionMemory>();
  readonly #firstStarts = new FirstStarts();

  constructor(options: AcpRunnerOptions = {}) {
    this.#options = options;
  }

  async check(config: RunnerConfig): Promise<RunnerAvailability> {
    const env = agentEnvironment(this.#options.env ?? process.env, { config: config.env });
    const command = await agentCommandOf(config, env, this.#options.agentsDir);
    if (!command) return { kind: 'acp', usable: false, reason: notFound(config, this.#options.agentsDir) };
    const { version, error } = await versionOf(command, env);
    return version
      ? { kind: 'acp', usable: true, version }
      : { kind: 'acp', usable: false, reason: `${command.binary} --version failed: ${error}` };
  }

  async run(request: RunnerRequest, emit: (event: RunnerEvent) => Promise<void>): Promise<RunnerOutcome> {
    assertRunnerRequest(request, 'acp');
    const send = emit;
    if (request.signal.aborted) return { status: 'cancelled', output: '' };
    const env = agentEnvOf(this.#options, request, agentNameOf(request.config));
    const command = await agentCommandOf(request.config, env, this.#options.agentsDir);
    if (!command) {
      const error = {
        code: 'RUNNER_NOT_AVAILABLE',
        message: notFound(request.config, this.#options.agentsDir),
      };
      await send({ type: 'error', error });
      return { status: 'failed', output: '', error };
    }
    let confinement: PathGuard;
    try {
      confinement = await createPathGuard({
        workdir: request.workdir,
        allowedRoots: request.allowedRoots ?? [],
      });
    } catch (thrown) {
      // A workdir or root that does not exist: the agent cannot start there.
      const error = toErrorObject(thrown);
      await send({ type: 'error', error });
      return { status: 'failed', output: '', error };
    }
    const mcpServers = await mcpServersOf(request, env);
    const agentEnv = agentEnvOf(this.#options, request, command.binary);
    const opened = await this.#firstStarts.enter(agentStateKey(command.binary, agentEnv));
    // From here on the agent runs: every way out goes through the finally below, which kills it.
    const agent = new AgentProcess(command, request.workdir, agentEnv);
    // A write to an agent that died is reported by its exit, not as an unhandled EPIPE.
    agent.child.stdin?.on('error', () => undefined);
    const guard = new RunGuard(agent, timeoutOf(this.#options, request), request.signal);
    const mapper = new AcpEventMapper(
      confinement,
      mcpServers.map((server) => server.name),
    );
    let loading = false;
    // Updates after the turn ended (late usage notices) must not follow the outcome into the log.
    let finished = false;
    // Handlers are not awaited by the connection: the chain keeps the events in their order.
    let emitted = Promise.resolve();
    const queue = (events: RunnerEvent[]) => {
      for (const event of events) emitted = emitted.then(() => send(event)).catch(() => undefined);
    };
    const connection: ClientConnection = keelClient({
      guard: confinement,
      readOnly: request.readOnly === true,
      commands: commandsPolicyOf(request.config.env),
      onUpdate: (notification) => {
        if (!loading && !finished) queue(mapper.map(notification.update));
      },
      // The agent is told no; the session log says why and how to allow it, on the call itself.
      onRefused: (call, reason) => {
        if (!finished) queue(mapper.refused(call, reason));
      },
    }).connect(
      ndJsonStream(
        Writable.toWeb(agent.child.stdin as Writable) as WritableStream<Uint8Array>,
        Readable.toWeb(agent.child.stdout as Readable) as ReadableStream<Uint8Array>,
      ),
    );
    let sessionId: string | undefined;
    try {
      const session = await guard
        .race(
          openSession(connection.agent, request, mcpServers, (value) => {
            loading = value;
          }),
        )
        .finally(opened);
      sessionId = session.sessionId;
      await send({ type: 'runner_started', runner: 'acp', runner_session_id: sessionId });
      const earlier = session.notLoaded
        ? { sessionId: session.notLoaded, memory: this.#memories.get(session.notLoaded) }
        : undefined;
      const prompt = promptBlocksOf(request, session.capabilities.promptCapabilities, earlier);
      guard.onAbort = () => {
        void connection.agent
          .notify('session/cancel', { sessionId: session.sessionId })
          .catch(() => undefined);
        return true;
      };
      const response = await guard.race(
        connection.agent.request('session/prompt', { sessionId: session.sessionId, prompt }),
      );
      finished = true;
      queue(mapper.flush());
      await emitted;
      this.#remember(session.sessionId, memoryOf(request, mapper.text));
      return await outcomeOf(response, mapper.text, session.sessionId, send);
    } catch (thrown) {
      finished = true;
      queue(mapper.flush());
      await emitted;
      const stop = await stopOf(thrown, agent, request.signal);
      const ids = sessionId ? { runnerSessionId: sessionId } : {};
      if (stop.status === 'cancelled') return { status: 'cancelled', output: mapper.text, ...ids };
      const error = withStderr(stop.error as RunnerErrorObject, agent.stderrTail());
      await send({ type: 'error', error });
      return { status: 'failed', output: mapper.text, ...ids, error };
    } finally {
      opened();
      guard.dispose();
      connection.close();
      await agent.kill();
    }
  }

  /** Kept for the resume brief; the oldest go first, so a long-lived service does not grow without end. */
  #remember(sessionId: string, memory: SessionMemory): void {
    this.#memories.delete(sessionId);
    this.#memories.set(sessionId, memory);
    for (const oldest of this.#memories.keys()) {
      if (this.#memories.size <= maxMemories) break;
      this.#memories.delete(oldest);
    }
  }
}

const maxMemories = 200;

async function outcomeOf(
  response: PromptResponse,
  output: string,
  sessionId: string,
  send: (event: RunnerEvent) => Promise<void>,
): Promise<RunnerOutcome> {
  const usage = usageOf(response);
  if (usage) await send({ type: 'usage', usage });
  const base = { output, runnerSessionId: sessionId, ...(usage ? { usage } : {}) };
  if (response.stopReason === 'end_turn') {
    if (output) await send({ type: 'message', role: 'assistant', content: output });
    return { status: 'succeeded', ...base };
  }
  if (response.stopReason === 'cancelled') return { status: 'cancelled', ...base };
  const error = stopErrors[response.stopReason] ?? {
    code: 'RUNNER_FAILED',
    message: `The ACP agent stopped with '${response.stopReason}'.`,
  };
  await send({ type: 'error', error });
  return { status: 'failed', ...base, error };
}

const stopErrors: Readonly<Record<string, RunnerErrorObject>> = {
  refusal: {
    code: 'AGENT_REFUSED',
    message: 'The ACP agent refused to continue the request (stop reason refusal).',
  },
  max_tokens: {
    code: 'MAX_TOKENS',
    message: 'The ACP agent hit its token limit before finishing (stop reason max_tokens).',
  },
  max_turn_requests: {
    code: 'MAX_TURNS',
    message: 'The ACP agent hit its limit of model requests in one turn (stop reason max_turn_requests).',
  },
};

/** The prompt's token counts, when the agent reports them (opencode does, as `usage`). */
function usageOf(response: PromptResponse): RunnerUsage | undefined {
  const usage = (response as { usage?: Record<string, unknown> | null }).usage;
  if (!usage || typeof usage.inputTokens !== 'number' || typeof usage.outputTokens !== 'number')
    return undefined;
  const total =
    typeof usage.totalTokens === 'number' ? usage.totalTokens : usage.inputTokens + usage.outputTokens;
  return { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, total_tokens: total };
}

/**
 * What ended the run. A request that failed because the connection closed is, when the agent exited just
 * then, the exit; an aborted run is cancelled whatever the agent did meanwhile.
 */
async function stopOf(thrown: unknown, agent: AgentProcess, signal: AbortSignal): Promise<RunStop> {
  if (thrown instanceof RunStop) return thrown;
  if (signal.aborted) return new RunStop('cancelled');
  if (isProtocolError(thrown)) {
    const detail = thrown.data === undefined ? '' : ` (${JSON.stringify(thrown.data)})`;
    return new RunStop('failed', {
      code: 'ACP_ERROR',
      message: `The ACP agent answered with error ${thrown.code}: ${thrown.message}${detail}`,
    });
  }
  const exit = await Promise.race([agent.exited, new Promise((done) => setTimeout(done, 1_000, undefined))]);
  if (exit) {
    const { code, signal: killedBy } = exit as { code: number | null; signal: string | null };
    const how = killedBy ? `was killed by ${killedBy}` : `exited with code ${code}`;
    return new RunStop('failed', { code: 'RUNNER_EXITED', message: `The ACP agent ${how}.` });
  }
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return new RunStop('failed', { code: 'ACP_ERROR', message: `The ACP connection failed: ${message}` });
}

function withStderr(error: RunnerErrorObject, stderr: string): RunnerErrorObject {
  if (!stderr) return error;
  return { ...error, message: `${error.message}\nLast stderr lines:\n${stderr}`, details: { stderr } };
}

function notFound(config: RunnerConfig, agentsDir: string | undefined): string {
  const where = agentsDir ? `on PATH or in ${agentsDir}/node_modules/.bin` : 'on PATH';
  return `The ACP agent '${agentNameOf(config)}' was not found ${where}.`;
}
