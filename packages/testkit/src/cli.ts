// Entry point of `keel-mock-model`: serve a JSON script until SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { isTestkitError, TestkitError } from './errors.ts';
import type { MockProfileName, ScriptFile } from './mock-model/index.ts';
import { loadScriptFile, mockProfileNames, startMockModel } from './mock-model/index.ts';

const usage = `Usage: keel-mock-model [--script file.json] [--port N] [--chunk-size N] [--profile NAME]

Serve a scripted model on http://127.0.0.1:PORT. One script answers every protocol:

  OpenAI chat completions  POST /v1/chat/completions, GET /v1/models   (base URL .../v1)
  OpenAI Responses API     POST /v1/responses                          (Codex: base_url .../v1)
  Anthropic Messages API   POST /v1/messages, /v1/messages/count_tokens (ANTHROPIC_BASE_URL, no /v1)
  Gemini API               POST /v1beta/models/{model}:generateContent, :streamGenerateContent,
                           :countTokens; GET /v1beta/models             (GOOGLE_GEMINI_BASE_URL)

Options:
  --script <file>     JSON script: an array of replies, or { "replies": [...], "models": [...] }.
                      Without it, every model request gets a "script exhausted" error.
  --port <n>          Port to listen on (default 0: a free port).
  --chunk-size <n>    Characters per streamed text chunk (default 8).
  --profile <name>    Write chat completions as this server does (default openai):
                      ${mockProfileNames.join(', ')}.
                      Each also serves its server's model listing: GET /api/tags and
                      POST /api/show (ollama), GET /props (llamacpp), GET /api/v0/models (lmstudio).
  -h, --help          Show this help.

Prints "Mock model listening on <base URL>" and runs until SIGINT or SIGTERM.`;

function parseInteger(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new TestkitError(
      'INVALID_ARGS',
      `--${name} must be an integer from ${min} to ${max}, got "${value}"`,
    );
  }
  return number;
}

function parseProfile(value: string | undefined): MockProfileName | undefined {
  if (value === undefined) return undefined;
  if ((mockProfileNames as readonly string[]).includes(value)) return value as MockProfileName;
  throw new TestkitError(
    'INVALID_ARGS',
    `--profile must be one of ${mockProfileNames.join(', ')}, got "${value}"`,
  );
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      script: { type: 'string' },
      port: { type: 'string' },
      'chunk-size': { type: 'string' },
      profile: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const port = parseInteger('port', values.port, 0, 65535);
  const chunkSize = parseInteger('chunk-size', values['chunk-size'], 1, 1_000_000);
  const profile = parseProfile(values.profile);
  const file: ScriptFile = values.script ? await loadScriptFile(values.script) : { replies: [] };
  const server = await startMockModel({
    script: file.replies,
    ...(file.models ? { models: file.models } : {}),
    ...(port === undefined ? {} : { port }),
    ...(chunkSize === undefined ? {} : { chunkSize }),
    ...(profile === undefined ? {} : { profile }),
  });
  process.stdout.write(`Mock model listening on ${server.url}\n`);
  const stop = (): void => {
    void server.close();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  // Our own errors and argument errors are user mistakes: a message, no stack trace.
  const known = isTestkitError(error) || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  process.stderr.write(`keel-mock-model: ${known ? (error as Error).message : String(error)}\n`);
  if (!isTestkitError(error) || error.code === 'INVALID_ARGS') {
    process.stderr.write('Run keel-mock-model --help for usage.\n');
  }
  process.exitCode = 1;
}
