import { ConfigError, createRuntime } from '@keel/runtime';
import type { Command } from 'commander';
import { printError, workdirOf } from '../cli-runtime.ts';
import { beforeStart } from '../commands/before-start.ts';
import { describe } from '../commands/descriptions.ts';
import type { CliIo } from '../io.ts';
import { addRunRequestOptions, type RunRequestFlags } from '../run-request-flags.ts';

type TuiFlags = Pick<
  RunRequestFlags,
  'workdir' | 'model' | 'modelBaseUrl' | 'thinking' | 'thinkingBudget' | 'session'
>;

/** `keel tui`: the full-screen terminal chat over the same runtime as `keel run`. */
export function registerTui(program: Command, io: CliIo): void {
  const command = program.command('tui').description(describe('tui'));
  addRunRequestOptions(
    command,
    ['workdir', 'model', 'modelBaseUrl', 'thinking', 'thinkingBudget', 'session'],
    {
      thinking: 'enable thinking mode and show the model’s thinking (needs model support)',
      session: 'open an existing session and continue it',
    },
  );
  command.action(async (flags: TuiFlags) => {
    io.exitCode = await tuiCommand(flags, io);
  });
}

async function tuiCommand(flags: TuiFlags, io: CliIo): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    io.err.write(
      'Error [INVALID_PARAMS]: keel tui needs an interactive terminal; for scripts and pipes use keel run.\n',
    );
    return 1;
  }
  const workdir = workdirOf(io, flags);
  // Before the full screen opens: the trust question, and a note when no sandbox confines commands.
  await beforeStart(io, workdir);
  let runtime: ReturnType<typeof createRuntime> | undefined;
  try {
    const { TuiController, showFullScreen } = await loadTerminalUi();
    runtime = createRuntime({
      env: io.env,
      workdir,
      // The user's own flag is a configured endpoint: their RUNTIME_MODEL_API_KEY may go there.
      ...(flags.modelBaseUrl ? { modelBaseUrl: flags.modelBaseUrl } : {}),
    });
    const controller = new TuiController({
      runtime,
      workdir,
      flags: {
        model: flags.model,
        modelBaseUrl: flags.modelBaseUrl,
        thinking: flags.thinking,
        thinkingBudget: flags.thinkingBudget,
      },
      env: io.env,
      cwd: io.cwd,
    });
    // An unknown --session is an error before the screen opens, as `keel run --session` has it.
    if (flags.session) await controller.openSession(flags.session);
    await showFullScreen(controller);
    return 0;
  } catch (error) {
    printError(io, error);
    return 1;
  } finally {
    await runtime?.close().catch(() => undefined);
  }
}

/**
 * The terminal UI's modules, loaded only by `keel tui`: ink and react are optional for `@keel/cli` (the
 * `all` install brings them), so a missing one is a clear message naming what to install.
 */
async function loadTerminalUi() {
  try {
    const [{ TuiController }, { showFullScreen }] = await Promise.all([
      import('./controller.ts'),
      import('./full-screen.ts'),
    ]);
    return { TuiController, showFullScreen };
  } catch (error) {
    const missing = /Cannot find (?:package|module) '([^']+)'/.exec((error as Error).message)?.[1];
    if (!missing) throw error;
    throw new ConfigError(
      `keel tui needs the terminal UI packages, and '${missing}' is not installed: npm install @keel/all (or npm install ink react).`,
    );
  }
}
