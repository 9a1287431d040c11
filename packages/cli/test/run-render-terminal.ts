import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eventually } from '@keel/testkit';

const keelBin = fileURLToPath(new URL('../bin/keel.js', import.meta.url));

/** Whether util-linux `script` is installed, which gives keel a pseudo-terminal; without it these tests are skipped. */
export const hasScript = spawnSync('script', ['--version']).status === 0;

export interface TerminalRun {
  /** Every byte keel wrote to the terminal so far, escape codes included, with the terminal's CRLF as LF. */
  transcript(): string;
  /** Polls the transcript until `check` accepts it; fails with the transcript after 15 s. */
  waitFor(check: (transcript: string) => boolean, what: string): Promise<string>;
  /** Keel's exit code and the whole transcript, once it exited. */
  done: Promise<{ code: number | null; transcript: string }>;
}

/**
 * Runs `keel <args>` on a pseudo-terminal (util-linux `script`, 100 columns), in a clean environment (no
 * NO_COLOR or CI from the test runner) plus `env`. stdout and stderr are the terminal, unless `stdoutTo`
 * names a file for stdout (a terminal user's `keel run … > answer.md`); `stdinFrom` feeds stdin from a file.
 */
export function runInTerminal(
  args: string[],
  env: Record<string, string>,
  options: { stdoutTo?: string; stdinFrom?: string } = {},
): TerminalRun {
  const variables = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    ...env,
  };
  const command = [
    'stty cols 100 rows 40;',
    'exec env -i',
    ...Object.entries(variables).map(([name, value]) => shellQuote(`${name}=${value}`)),
    ...[process.execPath, keelBin, ...args].map(shellQuote),
    ...(options.stdoutTo ? ['>', shellQuote(options.stdoutTo)] : []),
    ...(options.stdinFrom ? ['<', shellQuote(options.stdinFrom)] : []),
  ].join(' ');
  // -q: no banner; -f: flush as written; -e: keel's exit code; /dev/null: no typescript file.
  const child = spawn('script', ['-qfec', command, '/dev/null'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let raw = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
  const transcript = () => raw.replace(/\r\n/g, '\n');
  const done = new Promise<{ code: number | null; transcript: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, transcript: transcript() })),
  );
  return {
    transcript,
    async waitFor(check, what) {
      await eventually(() => check(transcript()), {
        timeoutMs: 15_000,
        intervalMs: 50,
        what: () => `${what}. Transcript:\n${JSON.stringify(transcript())}`,
      });
      return transcript();
    },
    done,
  };
}

/**
 * What the terminal shows at the end: colours dropped, a carriage return going back to the line's start and
 * the text after it overwriting what was there (how the spinner is drawn and wiped), trailing spaces trimmed.
 */
export function screenOf(transcript: string): string {
  const rows: string[][] = [[]];
  let column = 0;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escape codes are what is dropped.
  for (const char of transcript.replace(/\x1b\[[0-9;]*m/g, '')) {
    const row = rows[rows.length - 1]!;
    if (char === '\n') {
      rows.push([]);
      column = 0;
    } else if (char === '\r') column = 0;
    else row[column++] = char;
  }
  return rows
    .map((row) =>
      Array.from(row, (char) => char ?? ' ')
        .join('')
        .trimEnd(),
    )
    .join('\n');
}

function shellQuote(word: string): string {
  return /^[\w./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
