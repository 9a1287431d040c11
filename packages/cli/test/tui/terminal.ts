import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eventually } from '@keel/testkit';

const exec = promisify(execFile);
const keelBin = fileURLToPath(new URL('../../bin/keel.js', import.meta.url));

/** Whether tmux is installed (`.ci/run` installs it); without it the terminal tests are skipped, not passed. */
export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

export interface TerminalSize {
  columns: number;
  rows: number;
}

/** A real `keel tui` in a tmux pseudo-terminal: keys in, screen text out, as a user sees it. */
export interface Terminal extends AsyncDisposable {
  /** Types text as keystrokes. */
  type(text: string): Promise<void>;
  /** Presses keys by tmux name: `Enter`, `Escape`, `C-c`, `PageUp`, `y`. */
  press(...keys: string[]): Promise<void>;
  /** Types a line, waits until the input line shows it, then presses Enter. */
  submit(line: string): Promise<void>;
  /** The screen as text, one line per row (trailing spaces trimmed). */
  screen(): Promise<string>;
  /** Polls the screen until `check` accepts it; fails with the last screen after `timeoutMs`. */
  waitFor(check: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  waitForText(text: string, timeoutMs?: number): Promise<string>;
  resize(size: TerminalSize): Promise<void>;
  /** Waits for keel to exit; its exit code, as the pane's shell saw it. */
  exited(timeoutMs?: number): Promise<number>;
}

/**
 * Starts `keel tui <args>` in a private tmux server, in a clean environment (`env -i`: no CI, no
 * NO_COLOR from the test runner) plus `env`. The pane's shell prints a line before keel starts and,
 * after it exits, a line, the terminal's line discipline and keel's exit code, so a test can see the
 * screen and the terminal restored. Unless `waitUntilDrawn` is false, it returns once the TUI is on screen.
 */
export async function startTui(
  args: string[],
  env: Record<string, string>,
  size: TerminalSize = { columns: 100, rows: 30 },
  options: { waitUntilDrawn?: boolean } = {},
): Promise<Terminal> {
  const dir = await mkdtemp(join(tmpdir(), 'keel-tui-'));
  const socket = join(dir, 'tmux.sock');
  const config = join(dir, 'tmux.conf');
  // No status bar: the pane gets every row.
  await writeFile(config, 'set -g status off\n');
  const tmux = (...tmuxArgs: string[]) => exec('tmux', ['-S', socket, ...tmuxArgs]);
  const variables = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? dir,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    ...env,
  };
  const keel = ['env', '-i', ...Object.entries(variables).map(([name, value]) => `${name}=${value}`)]
    .concat(process.execPath, keelBin, 'tui', ...args)
    .map(shellQuote)
    .join(' ');
  const script = [
    "printf 'shell before keel tui\\n'",
    keel,
    'code=$?',
    "printf 'shell after keel tui\\n'",
    // What a broken exit leaves behind: a terminal still in raw mode (-icanon -echo).
    "stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '",
    // The shell stays (a dead pane loses its screen in tmux 3.3) until the test ends and kills the server.
    'printf \'\\nkeel tui exited with %s\\n\' "$code"',
    'sleep 600',
  ].join('; ');
  await exec('tmux', [
    '-S',
    socket,
    '-f',
    config,
    'new-session',
    '-d',
    '-s',
    'keel',
    '-x',
    String(size.columns),
    '-y',
    String(size.rows),
    script,
  ]);

  const screen = async () => (await tmux('capture-pane', '-p', '-t', 'keel')).stdout;
  const waitFor = async (check: (text: string) => boolean, what: string, timeoutMs = 15_000) => {
    let last = '';
    const { text } = await eventually(
      async () => {
        last = await screen();
        return check(last) && { text: last };
      },
      { timeoutMs, intervalMs: 100, what: () => `${what}. Screen:\n${last}` },
    );
    return text;
  };
  const terminal: Terminal = {
    async type(text) {
      await tmux('send-keys', '-t', 'keel', '-l', text);
    },
    async press(...keys) {
      for (const key of keys) await tmux('send-keys', '-t', 'keel', key);
    },
    async submit(line) {
      await terminal.type(line);
      await waitFor((text) => inputLine(text).includes(line), `the input line to show "${line}"`);
      await terminal.press('Enter');
    },
    screen,
    waitFor,
    waitForText: (text, timeoutMs) => waitFor((shown) => shown.includes(text), `"${text}"`, timeoutMs),
    async resize({ columns, rows }) {
      await tmux('resize-window', '-t', 'keel', '-x', String(columns), '-y', String(rows));
    },
    async exited(timeoutMs = 15_000) {
      const screen = await waitFor((text) => exitLine.test(text), 'keel tui to exit', timeoutMs);
      return Number(exitLine.exec(screen)![1]);
    },
    async [Symbol.asyncDispose]() {
      await tmux('kill-server').catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
  // Keys typed before keel puts the terminal in raw mode would be echoed by the terminal itself.
  if (options.waitUntilDrawn ?? true) {
    await waitFor((text) => statusLine(text) !== '', 'keel tui to draw').catch(async (error) => {
      await terminal[Symbol.asyncDispose]();
      throw error;
    });
  }
  return terminal;
}

const exitLine = /^keel tui exited with (\d+)$/m;

/** The input line: the row under the rule (`───`) above the status line. */
export function inputLine(screen: string): string {
  const rows = screen.split('\n');
  const rule = rows.findLastIndex((row) => row.startsWith('───'));
  return rule === -1 ? '' : (rows[rule + 1] ?? '');
}

/** The status line: the row after the input line. */
export function statusLine(screen: string): string {
  const rows = screen.split('\n');
  const rule = rows.findLastIndex((row) => row.startsWith('───'));
  return rule === -1 ? '' : (rows[rule + 2] ?? '');
}

function shellQuote(word: string): string {
  return /^[\w./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
