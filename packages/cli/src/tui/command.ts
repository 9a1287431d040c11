import { createRuntime } from '@keel/runtime';
import type { Command } from 'commander';
import { printError, workdirOf } from '../cli-runtime.ts';
import type { CliIo } from '../io.ts';
import { positiveInt } from '../option-parsers.ts';
import { TuiController } from './controller.ts';
import { showFullScreen } from './full-screen.ts';

interface TuiFlags {
  workdir?: string;
  model?: string;
  modelBaseUrl?: string;
  thinking?: boolean;
  thinkingBudget?: number;
  session?: string;
}

/** `keel tui`: the full-screen terminal chat over the same runtime as `keel run`. */
export function registerTui(program: Command, io: CliIo): void {
  program
    .command('tui')
    .description('Open the full-screen terminal chat (a conversation of runs in one session)')
    .option('-w, --workdir <dir>', 'directory the agent works in (default: current directory)')
    .option('-m, --model <name>', 'model name (default: configured model)')
    .option('--model-base-url <url>', 'chat-completions-compatible API address')
    .option('--thinking', 'enable thinking mode and show the model’s thinking (needs model support)')
    .option('--thinking-budget <tokens>', 'maximum thinking tokens', positiveInt)
    .option('-s, --session <id>', 'open an existing session and continue it')
    .action(async (flags: TuiFlags) => {
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
  let runtime: ReturnType<typeof createRuntime> | undefined;
  try {
    runtime = createRuntime({ env: io.env, workdir });
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
