import { createInterface } from 'node:readline/promises';
import { ConfigError, loadConfigReport, sandboxStatus } from '@keel/runtime';
import {
  ConfigFile,
  globalConfigPath,
  hideSecrets,
  projectConfigPath,
  readEnv,
} from '@keel/runtime/internal';
import type { Command } from 'commander';
import { printJson, type WorkdirFlags, workdirOf, workdirOption } from '../cli-runtime.ts';
import type { CliIo } from '../io.ts';
import { stringifyForTerminal, terminalSafe } from '../render/terminal-safe.ts';
import { describe } from './descriptions.ts';
import { ignoredLines, shellWord } from './project-trust.ts';

interface ConfigFlags extends WorkdirFlags {
  json?: boolean;
  project?: boolean;
  model?: string;
  modelBaseUrl?: string;
}

/** Keys never written to a file: credentials come from the environment (spec section 5). */
const credentials = /(^|\.)(model_api_key|api_key)$|(secret|password|token)$/i;

/** `keel config show|set|setup`: read and change the global or project configuration file. */
export function registerConfig(program: Command, io: CliIo): void {
  const config = program.command('config').description(describe('config'));

  workdirOption(config.command('show'))
    .description('Show the effective configuration (project over global), secrets hidden')
    .option('--json', 'print JSON')
    .action((flags: ConfigFlags) => guarded(io, () => show(io, flags)));

  workdirOption(config.command('set'))
    .description('Set one setting, e.g. `keel config set circuit_breaker.max_cost_usd 2`')
    .argument('<key>', 'a setting, dotted for nested ones')
    .argument('<value>', 'a JSON value (number, true, ["a","b"]…) or else a string; null removes it')
    .option('--project', "write the project's .runtime/config.json instead of the global file")
    .action((key: string, value: string, flags: ConfigFlags) =>
      guarded(io, () => set(io, flags, key, parseValue(value))),
    );

  workdirOption(config.command('setup'))
    .description('Choose the model and its endpoint (asks when run in a terminal)')
    .option('-m, --model <name>', 'model name')
    .option('--model-base-url <url>', 'chat-completions-compatible API address')
    .option('--project', "write the project's .runtime/config.json instead of the global file")
    .action((flags: ConfigFlags) => guarded(io, () => setup(io, flags)));
}

async function guarded(io: CliIo, action: () => Promise<void> | void): Promise<void> {
  try {
    await action();
  } catch (error) {
    const { code, message } =
      error instanceof ConfigError ? error : { code: 'SERVER_ERROR', message: String(error) };
    io.err.write(terminalSafe(`Error [${code}]: ${message}\n`));
    io.exitCode = 1;
  }
}

function paths(io: CliIo, flags: ConfigFlags) {
  const runtimeDir = readEnv(io.env).home;
  const workdir = workdirOf(io, flags);
  return { runtimeDir, workdir, global: globalConfigPath(runtimeDir), project: projectConfigPath(workdir) };
}

function show(io: CliIo, flags: ConfigFlags): void {
  const where = paths(io, flags);
  const { config, trusted, ignored, projectDir } = loadConfigReport(where.runtimeDir, where.workdir);
  const effective = hideSecrets(config);
  const sandbox = sandboxStatus(config.sandbox);
  const trust = terminalSafe(`keel trust ${shellWord(projectDir)}`);
  if (flags.json) {
    printJson(io, {
      config: effective,
      files: { global: where.global, project: where.project },
      sandbox,
      project_config: { trusted, ignored, ...(ignored.length ? { how_to_trust: trust } : {}) },
    });
    return;
  }
  io.out.write(
    terminalSafe(
      `# global: ${where.global}\n# project: ${where.project}${trusted ? ' (approved as shown)' : ''}\n`,
    ),
  );
  io.out.write(`# sandbox: ${sandbox.reason}\n`);
  if (ignored.length > 0) {
    const lines = ignoredLines(ignored).replaceAll(/^ {2}/gm, '#   ');
    io.out.write(
      `# ignored from the project file (not approved as it is now; ${trust} applies them):\n${lines}\n`,
    );
  }
  // The project file's values: C1 controls, which JSON leaves as they are, escaped.
  io.out.write(`${stringifyForTerminal(effective, 2)}\n`);
}

async function set(io: CliIo, flags: ConfigFlags, key: string, value: unknown): Promise<void> {
  if (!/^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)*$/.test(key)) {
    throw new ConfigError(`'${key}' is not a setting name (letters, digits, _ and -, dotted for nesting).`);
  }
  if (credentials.test(key)) {
    throw new ConfigError(
      `${key} is a credential and is never written to a file: set RUNTIME_MODEL_API_KEY in the environment.`,
    );
  }
  const where = paths(io, flags);
  const file = new ConfigFile(flags.project ? where.project : where.global);
  await file.update((current) => withSetting(current, key.split('.'), value));
  io.out.write(`${value === null ? 'Removed' : 'Set'} ${key} in ${file.path}\n`);
}

async function setup(io: CliIo, flags: ConfigFlags): Promise<void> {
  let { model, modelBaseUrl } = flags;
  const input = io.in ?? process.stdin;
  if (!model && (input as { isTTY?: boolean }).isTTY) {
    const ask = createInterface({ input, output: io.err as NodeJS.WritableStream, terminal: true });
    try {
      model = (await ask.question('Model name (e.g. gpt-4.1, qwen-max, llama3.1): ')).trim() || undefined;
      modelBaseUrl =
        (await ask.question('API base URL (empty for OpenAI; e.g. http://localhost:11434/v1): ')).trim() ||
        undefined;
    } finally {
      ask.close();
    }
  }
  if (!model) throw new ConfigError('No model given: pass --model <name> (and --model-base-url <url>).');
  const where = paths(io, flags);
  const file = new ConfigFile(flags.project ? where.project : where.global);
  await file.update((current) => ({
    ...current,
    model,
    ...(modelBaseUrl ? { model_base_url: modelBaseUrl } : {}),
  }));
  io.out.write(`Saved model ${model}${modelBaseUrl ? ` at ${modelBaseUrl}` : ''} in ${file.path}\n`);
  if (!readEnv(io.env).modelApiKey) {
    io.out.write(
      'The API key is not stored in files: export RUNTIME_MODEL_API_KEY=… (a local server may need none).\n',
    );
  }
}

/** The value of a `set` argument: JSON when it parses, else the text itself. */
function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A copy of `object` with the setting at `path` set (or removed, for null). */
function withSetting(
  object: Record<string, unknown>,
  path: string[],
  value: unknown,
): Record<string, unknown> {
  const [head, ...rest] = path as [string, ...string[]];
  const copy = { ...object };
  if (rest.length === 0) {
    if (value === null) delete copy[head];
    else copy[head] = value;
    return copy;
  }
  const child = copy[head];
  const nested = typeof child === 'object' && child !== null && !Array.isArray(child) ? child : {};
  copy[head] = withSetting(nested as Record<string, unknown>, rest, value);
  return copy;
}
