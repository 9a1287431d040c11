import { createRuntime, KeelError, type RunRequest, type RuntimeEvent, toErrorObject } from '@keel/runtime';
import type { Command } from 'commander';
import { keelArgsOf, workdirOf } from '../cli-runtime.ts';
import { loadImage } from '../images.ts';
import { interruptSignal } from '../interrupt.ts';
import type { CliIo } from '../io.ts';
import { collect, commaList, nonNegativeInt, nonNegativeNumber, positiveInt } from '../option-parsers.ts';
import { approvalHint } from '../render/approval-hint.ts';
import { createEventPrinter } from '../render/event-printer.ts';
import { loadWorkflow } from '../workflow-file.ts';
import { describe } from './descriptions.ts';

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
  workflow?: string;
  json?: boolean;
}

/** `keel run "<prompt>"`: one agent run, streamed to the terminal. */
export function registerRun(program: Command, io: CliIo): void {
  program
    .command('run')
    .description(describe('run'))
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
    .option('--workflow <file>', 'run this workflow (JSON) instead of the plain agent')
    .option('--json', 'print events as JSON lines instead of text')
    .action(async (prompt: string, flags: RunFlags) => {
      io.exitCode = await runCommand(prompt, flags, io);
    });
}

async function runCommand(prompt: string, flags: RunFlags, io: CliIo): Promise<number> {
  const keelArgs = keelArgsOf(io, flags);
  const printEvent = flags.json
    ? (event: RuntimeEvent) => {
        io.out.write(`${JSON.stringify(event)}\n`);
        // stdout stays JSON; the person at the terminal still learns how to decide the approval.
        if (event.type === 'interaction_request')
          io.err.write(
            `${approvalHint({ id: event.request_id, prompt: event.prompt, kind: event.kind, options: event.options }, keelArgs)}\n`,
          );
      }
    : createEventPrinter({ verbose: flags.verbose ?? false, out: io.out, err: io.err, keelArgs });
  // Errors raised before the run starts (bad flags, unknown session) come with no `error` event.
  let errorPrinted = false;
  const print = (event: RuntimeEvent) => {
    if (event.type === 'error') errorPrinted = true;
    printEvent(event);
  };
  // Ctrl-C cancels the run, also while it waits for an approval.
  using interrupt = interruptSignal();
  const workdir = workdirOf(io, flags);
  const runtime = createRuntime({ env: io.env, workdir });
  try {
    const images = await Promise.all((flags.image ?? []).map((path) => loadImage(path)));
    const workflow = flags.workflow ? await loadWorkflow(flags.workflow, io.cwd) : undefined;
    const request: RunRequest = {
      prompt,
      workdir,
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
    await runtime.run(request, {
      signal: interrupt.signal,
      onEvent: print,
      ...(workflow ? { workflow } : {}),
    });
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
    await runtime.close().catch(() => undefined);
  }
}
