import { realpathSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createRuntime, KeelError, type Runtime } from '@keel/runtime';
import type { Command } from 'commander';
import { errorLine, keelArgsOf, workdirOf } from '../cli-runtime.ts';
import type { CliIo } from '../io.ts';
import { createEventPrinter } from '../render/event-printer.ts';
import { startProgress } from '../render/progress.ts';
import { terminalSafe } from '../render/terminal-safe.ts';
import { addRunRequestOptions, type RunRequestFlags, runRequestFromFlags } from '../run-request-flags.ts';
import { beforeStart } from './before-start.ts';
import { describe } from './descriptions.ts';

/** A chat sends only the model to its runs; the session is the conversation's own. */
interface ChatFlags extends Pick<RunRequestFlags, 'workdir' | 'model' | 'modelBaseUrl' | 'session'> {
  continue?: boolean;
  verbose?: boolean;
}

/** `keel chat`: a line-by-line conversation; every line is one run of the same session. */
export function registerChat(program: Command, io: CliIo): void {
  const command = program.command('chat').description(describe('chat'));
  addRunRequestOptions(command, ['workdir', 'model', 'modelBaseUrl']);
  command.option('-c, --continue', 'continue the most recent session of this directory');
  addRunRequestOptions(command, ['session'], { session: 'continue this session' });
  command.option('-v, --verbose', 'show thinking and full tool results').action(async (flags: ChatFlags) => {
    io.exitCode = await chat(flags, io);
  });
}

async function chat(flags: ChatFlags, io: CliIo): Promise<number> {
  if (flags.continue && flags.session) {
    io.err.write('Error [INVALID_PARAMS]: --continue and --session cannot be used together.\n');
    return 1;
  }
  const workdir = workdirOf(io, flags);
  // Asks once before the project file's security-relevant keys may apply; says when no sandbox confines commands.
  await beforeStart(io, workdir);
  const runtime = createRuntime({
    env: io.env,
    workdir,
    // The user's own flag is a configured endpoint: their RUNTIME_MODEL_API_KEY may go there.
    ...(flags.modelBaseUrl ? { modelBaseUrl: flags.modelBaseUrl } : {}),
  });
  const input = io.in ?? process.stdin;
  const interactive = (input as { isTTY?: boolean }).isTTY === true;
  const lines = createInterface({ input, terminal: false });
  try {
    let sessionId = flags.continue ? latestSession(runtime, workdir) : flags.session;
    if (flags.continue && !sessionId) {
      io.err.write(terminalSafe(`Error [SESSION_NOT_FOUND]: No session to continue in ${workdir}.\n`));
      return 1;
    }
    if (sessionId) runtime.sessions.get(sessionId);
    if (interactive)
      io.err.write(
        terminalSafe(`Chatting in ${workdir}${sessionId ? `, session ${sessionId}` : ''}. Ctrl-D ends.\n› `),
      );
    let lastFailed = false;
    for await (const line of lines) {
      const prompt = line.trim();
      if (prompt === '/quit' || prompt === '/exit') break;
      if (prompt) {
        const outcome = await turn(runtime, { prompt, workdir, sessionId, flags, io });
        sessionId = outcome.sessionId ?? sessionId;
        lastFailed = outcome.failed;
      }
      if (interactive) io.err.write('› ');
    }
    return lastFailed ? 1 : 0;
  } catch (error) {
    io.err.write(`${errorLine(error)}\n`);
    return 1;
  } finally {
    lines.close();
    await runtime.close().catch(() => undefined);
  }
}

/** One line of the chat as a run; Ctrl-C cancels the run in progress, not the chat. */
async function turn(
  runtime: Runtime,
  turn: { prompt: string; workdir: string; sessionId: string | undefined; flags: ChatFlags; io: CliIo },
): Promise<{ sessionId?: string; failed: boolean }> {
  const { flags, io } = turn;
  // A spinner on a terminal's stderr for the length of the turn: what the run does and for how long.
  const progress = startProgress(io);
  const print = createEventPrinter({
    verbose: flags.verbose ?? false,
    out: io.out,
    err: io.err,
    keelArgs: keelArgsOf(io, flags),
    progress,
    workdir: turn.workdir,
  });
  const cancel = new AbortController();
  const onInterrupt = () => cancel.abort();
  process.once('SIGINT', onInterrupt);
  let sessionId: string | undefined;
  let errorShown = false;
  try {
    const result = await runtime.run(
      runRequestFromFlags(turn.prompt, turn.workdir, {
        model: flags.model,
        modelBaseUrl: flags.modelBaseUrl,
        session: turn.sessionId,
      }),
      {
        signal: cancel.signal,
        onEvent: (event) => {
          if (event.type === 'session_start') sessionId = event.session_id;
          if (event.type === 'error') errorShown = true;
          print(event);
        },
      },
    );
    return { sessionId: result.session_id, failed: false };
  } catch (error) {
    progress.stop();
    if (!(KeelError.is(error) && error.code === 'CANCELLED') && !errorShown) {
      io.err.write(`${errorLine(error)}\n`);
    }
    return { ...(sessionId ? { sessionId } : {}), failed: true };
  } finally {
    progress.stop();
    process.off('SIGINT', onInterrupt);
  }
}

/** The most recently updated session that works in `workdir`. */
function latestSession(runtime: Runtime, workdir: string): string | undefined {
  // Sessions record the normalised (real) path, as every surface does.
  const real = realpathSync(workdir);
  return runtime.sessions.list(200).find((session) => session.workdir === real)?.id;
}
