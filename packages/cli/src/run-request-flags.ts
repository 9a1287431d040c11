import type { ImagePayload, RunRequest } from '@keel/runtime';
import { type Command, Option } from 'commander';
import { loadImage } from './images.ts';
import { collect, commaList, nonNegativeInt, nonNegativeNumber, positiveInt } from './option-parsers.ts';

/**
 * The command-line flags that become a run request, shared by `keel run`, `keel chat` and `keel tui`:
 * one declaration of each option (its flags, parser and default help) and one mapping to the request, so
 * the three commands cannot drift. Each command picks the options it offers, in its own help order.
 */
export interface RunRequestFlags {
  workdir?: string;
  model?: string;
  modelBaseUrl?: string;
  image?: string[];
  thinking?: boolean;
  thinkingBudget?: number;
  maxTokens?: number;
  maxCost?: number;
  maxSteps?: number;
  includeTools?: string[];
  excludeTools?: string[];
  session?: string;
}

export type RunRequestOption = keyof RunRequestFlags;

const options: Record<RunRequestOption, () => Option> = {
  workdir: () =>
    new Option('-w, --workdir <dir>', 'directory the agent works in (default: current directory)'),
  model: () => new Option('-m, --model <name>', 'model name (default: configured model)'),
  modelBaseUrl: () => new Option('--model-base-url <url>', 'chat-completions-compatible API address'),
  image: () =>
    new Option('-i, --image <path>', 'attach an image (repeatable)').argParser(collect).default([]),
  thinking: () => new Option('--thinking', 'enable thinking mode (needs model support)'),
  thinkingBudget: () =>
    new Option('--thinking-budget <tokens>', 'maximum thinking tokens').argParser(positiveInt),
  maxTokens: () =>
    new Option('--max-tokens <tokens>', 'circuit breaker: maximum total tokens for this run').argParser(
      nonNegativeInt,
    ),
  maxCost: () =>
    new Option('--max-cost <usd>', 'circuit breaker: maximum cost in USD for this run').argParser(
      nonNegativeNumber,
    ),
  maxSteps: () =>
    new Option('--max-steps <steps>', 'circuit breaker: maximum tool-call steps for this run').argParser(
      nonNegativeInt,
    ),
  includeTools: () =>
    new Option('--include-tools <names>', 'offer only these tools (comma separated)').argParser(commaList),
  excludeTools: () =>
    new Option('--exclude-tools <names>', 'do not offer these tools (comma separated)').argParser(commaList),
  session: () => new Option('-s, --session <id>', 'continue an existing session'),
};

/**
 * Adds the named run-request options to `command`, in the order given. `help` replaces an option's
 * description where a command means something more specific by it (e.g. `keel tui --session`).
 */
export function addRunRequestOptions(
  command: Command,
  names: readonly RunRequestOption[],
  help: Partial<Record<RunRequestOption, string>> = {},
): Command {
  for (const name of names) {
    const option = options[name]();
    const description = help[name];
    if (description !== undefined) option.description = description;
    command.addOption(option);
  }
  return command;
}

/**
 * The run request for `prompt` in `workdir` from the parsed flags: only the flags that were given, under
 * the spec's field names. `images` are the already loaded `--image` files (see `loadFlagImages`).
 */
export function runRequestFromFlags(
  prompt: string,
  workdir: string,
  flags: RunRequestFlags,
  images: readonly ImagePayload[] = [],
): RunRequest {
  return {
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
    ...(images.length ? { images: [...images] } : {}),
  };
}

/** Reads the `--image` files (paths as given, relative to the process's directory, as `keel run` has it). */
export function loadFlagImages(flags: Pick<RunRequestFlags, 'image'>): Promise<ImagePayload[]> {
  return Promise.all((flags.image ?? []).map((path) => loadImage(path)));
}
