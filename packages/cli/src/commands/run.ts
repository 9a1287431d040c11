import { createRuntime, KeelError, type RunRequest, type RuntimeEvent, toErrorObject } from '@keel/runtime';
import type { Command } from 'commander';
import { loadImage } from '../images.ts';
import type { CliIo } from '../io.ts';
import { collect, commaList, nonNegativeInt, nonNegativeNumber, positiveInt } from '../option-parsers.ts';
import { createEventPrinter } from '../render/event-printer.ts';

interface RunFlags {
  workdir?: string;
  model?: string;
  modelBaseUrl?: string;
  verbose?: boolean;
  image?: string[];
  thinking?: boolean;
  thinkingBudget?: number;
  maxTokens?: number;
  maxCost?: number;
  maxSteps?: number;
  includeTools?: string[];
  excludeTools?: string[];
  session?: string;
  json?: boolean;
}

/** `keel run "<prompt>"`: one agent run, streamed to the terminal. */
export function registerRun(program: Command, io: CliIo): void {
  program
    .command('run')
    .description('Run the coding agent on a prompt and stream its answer')
    .argument('<prompt>', 'what the agent should do')
    .option('-w, --workdir <dir>', 'directory the agent works in (default: current directory)')
    .option('-m, --model <name>', 'model name (default: configured model)')
    .option('--model-base-url <url>', 'chat-completions-compatible API address')
    .option('-v, --verbose', 'show thinking and full tool results')
    .option('-i, --image <path>', 'attach an image (repeatable)', collect, [])
    .option('--thinking', 'enable thinking mode (needs model support)')
    .option('--thinking-budget <tokens>', 'maximum thinking tokens', positiveInt)
    .option('--max-tokens <tokens>', 'circuit breaker: maximum total tokens for this run', nonNegativeInt)
    .option('--max-cost <usd>', 'circuit breaker: maximum cost in USD for this run', nonNegativeNumber)
    .option('--max-steps <steps>', 'circuit breaker: maximum tool-call steps for this run', nonNegativeInt)
    .option('--include-tools <names>', 'offer only these tools (comma separated)', commaList)
    .option('--exclude-tools <names>', 'do not offer these tools (comma separated)', commaList)
    .option('-s, --session <id>', 'continue an existing session')
    .option('--json', 'print events as JSON lines instead of text')
    .action(async (prompt: string, flags: RunFlags) => {
      io.exitCode = await runCommand(prompt, flags, io);
    });
}

async function runCommand(prompt: string, flags: RunFlags, io: CliIo): Promise<number> {
  const printEvent = flags.json
    ? (event: RuntimeEvent) => void io.out.write(`${JSON.stringify(event)}\n`)
    : createEventPrinter({ verbose: flags.verbose ?? false, out: io.out, err: io.err });
  // Errors raised before the run starts (bad flags, unknown session) come with no `error` event.
  let errorPrinted = false;
  const print = (event: RuntimeEvent) => {
    if (event.type === 'error') errorPrinted = true;
    printEvent(event);
  };
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const runtime = createRuntime({ env: io.env });
  try {
    const images = await Promise.all((flags.image ?? []).map((path) => loadImage(path)));
    const request: RunRequest = {
      prompt,
      workdir: flags.workdir ?? io.cwd,
      ...(flags.model ? { model: flags.model } : {}),
      ...(flags.modelBaseUrl ? { model_base_url: flags.modelBaseUrl } : {}),
      ...(flags.thinking ? { enable_thinking: true } : {}),
      ...(flags.thinkingBudget !== undefined ? { thinking_budget: flags.thinkingBudget } : {}),
      ...(flags.maxTokens !== undefined ? { max_tokens: flags.maxTokens } : {}),
      ...(flags.maxCost !== undefined ? { max_cost_usd: flags.maxCost } : {}),
      ...(flags.maxSteps !== undefined ? { max_steps: flags.maxSteps } : {}),
      ...(flags.includeTools ? { include_tools: flags.includeTools } : {}),
      ...(flags.excludeTools ? { exclude_tools: flags.excludeTools } : {}),
      ...(flags.session ? { session_id: flags.session } : {}),
      ...(images.length ? { images } : {}),
    };
    await runtime.run(request, { signal: controller.signal, onEvent: print });
    return 0;
  } catch (error) {
    if (KeelError.is(error) && error.code === 'CANCELLED') return 130;
    if (!errorPrinted) {
      const { code, message } = toErrorObject(error);
      if (flags.json) io.out.write(`${JSON.stringify({ type: 'error', error: { code, message } })}\n`);
      else io.err.write(`Error [${code}]: ${message}\n`);
    }
    return 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    runtime.close();
  }
}
