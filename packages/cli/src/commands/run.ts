import {
  createRuntime,
  InvalidParamsError,
  KeelError,
  type RuntimeEvent,
  toErrorObject,
  type Workflow,
} from '@keel/runtime';
import type { Command } from 'commander';
import { errorLine, keelArgsOf, workdirOf } from '../cli-runtime.ts';
import { interruptSignal } from '../interrupt.ts';
import type { CliIo } from '../io.ts';
import { approvalHint } from '../render/approval-hint.ts';
import { createEventPrinter } from '../render/event-printer.ts';
import { noProgress, startProgress } from '../render/progress.ts';
import { stringifyForTerminal } from '../render/terminal-safe.ts';
import {
  addRunRequestOptions,
  loadFlagImages,
  type RunRequestFlags,
  runRequestFromFlags,
} from '../run-request-flags.ts';
import { loadWorkflow } from '../workflow-file.ts';
import { beforeStart } from './before-start.ts';
import { describe } from './descriptions.ts';

interface RunFlags extends RunRequestFlags {
  verbose?: boolean;
  workflow?: string;
  plan?: boolean;
  json?: boolean;
}

/** `keel run --plan`: a planner writes the task graph; each task goes to the specialist its capability names. */
const planWorkflow: Workflow = { root: { id: 'plan', kind: 'task_graph' } };

/** `keel run "<prompt>"`: one agent run, streamed to the terminal. */
export function registerRun(program: Command, io: CliIo): void {
  const command = program
    .command('run')
    .description(describe('run'))
    .argument('<prompt>', 'what the agent should do');
  addRunRequestOptions(command, ['workdir', 'model', 'modelBaseUrl']);
  command.option('-v, --verbose', 'show thinking and full tool results');
  addRunRequestOptions(command, [
    'image',
    'thinking',
    'thinkingBudget',
    'maxTokens',
    'maxCost',
    'maxSteps',
    'includeTools',
    'excludeTools',
    'session',
  ]);
  command
    .option('--workflow <file>', 'run this workflow (JSON) instead of the plain agent')
    .option(
      '--plan',
      'a planner splits the work into tasks for specialist agents (code, research, test, ...), run in parallel where they can',
    )
    .option('--json', 'print events as JSON lines instead of text')
    .action(async (prompt: string, flags: RunFlags) => {
      io.exitCode = await runCommand(prompt, flags, io);
    });
}

async function runCommand(prompt: string, flags: RunFlags, io: CliIo): Promise<number> {
  const keelArgs = keelArgsOf(io, flags);
  // Ctrl-C cancels the run, also while it waits for an approval.
  using interrupt = interruptSignal();
  const workdir = workdirOf(io, flags);
  // Asks once before the project file's security-relevant keys may apply; says when no sandbox confines commands.
  await beforeStart(io, workdir);
  // From here to the end of the run, a spinner on a terminal's stderr says what it does and for how long.
  const progress = flags.json ? noProgress : startProgress(io);
  const printEvent = flags.json
    ? (event: RuntimeEvent) => {
        io.out.write(`${stringifyForTerminal(event)}\n`);
        // stdout stays JSON; the person at the terminal still learns how to decide the approval.
        if (event.type === 'interaction_request')
          io.err.write(
            `${approvalHint({ id: event.request_id, prompt: event.prompt, kind: event.kind, options: event.options }, keelArgs)}\n`,
          );
      }
    : createEventPrinter({
        verbose: flags.verbose ?? false,
        out: io.out,
        err: io.err,
        keelArgs,
        progress,
        workdir,
      });
  // Errors raised before the run starts (bad flags, unknown session) come with no `error` event.
  let errorPrinted = false;
  const print = (event: RuntimeEvent) => {
    if (event.type === 'error') errorPrinted = true;
    printEvent(event);
  };
  const runtime = createRuntime({
    env: io.env,
    workdir,
    // The user's own flag is a configured endpoint: their RUNTIME_MODEL_API_KEY may go there.
    ...(flags.modelBaseUrl ? { modelBaseUrl: flags.modelBaseUrl } : {}),
  });
  try {
    const images = await loadFlagImages(flags);
    if (flags.plan && flags.workflow) {
      throw new InvalidParamsError(
        'Give --plan or --workflow, not both: --plan is a one-task-graph workflow.',
      );
    }
    const workflow = flags.plan
      ? planWorkflow
      : flags.workflow
        ? await loadWorkflow(flags.workflow, io.cwd)
        : undefined;
    const request = runRequestFromFlags(prompt, workdir, flags, images);
    const result = await runtime.run(request, {
      signal: interrupt.signal,
      onEvent: print,
      ...(workflow ? { workflow } : {}),
    });
    // The tasks' answers streamed as they came, interleaved; the aggregate is in task-id order, printed
    // as an answer is (Markdown rendered on a terminal).
    if (flags.plan && !flags.json)
      print({ type: 'text_delta', session_id: result.session_id, content: `\n${result.output}\n` });
    return 0;
  } catch (error) {
    progress.stop();
    if (KeelError.is(error) && error.code === 'CANCELLED') return 130;
    if (!errorPrinted) {
      const { code, message } = toErrorObject(error);
      if (flags.json) io.out.write(`${stringifyForTerminal({ type: 'error', error: { code, message } })}\n`);
      else io.err.write(`${errorLine(error)}\n`);
    }
    return 1;
  } finally {
    progress.stop();
    await runtime.close().catch(() => undefined);
  }
}
