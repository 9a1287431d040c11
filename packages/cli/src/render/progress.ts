import type { WriteStream } from 'node:tty';
import { styleText } from 'node:util';
import { terminalSafe } from './terminal-safe.ts';

/**
 * A spinner line on stderr saying what a run does and for how long (`⠹ Running exec_command · 12s`), for
 * the person watching a terminal. Output goes through `write`, which takes the spinner off the line
 * first; it comes back on the next tick once the terminal's cursor is at the start of a line again.
 * It is drawn with a carriage return and spaces only: no cursor escape sequences, so it works on any
 * terminal and NO_COLOR output holds no escape code at all.
 */
export interface Progress {
  /** What the run does now; null hides the spinner until the next activity. */
  activity(label: string | null): void;
  /** Writes output to `stream` with the spinner off the line. */
  write(stream: NodeJS.WritableStream, text: string): void;
  /** Clears the spinner for good. */
  stop(): void;
}

const frames = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';
const tickMs = 100;

/** Output written as it is, with no spinner: stderr is not a terminal (piped, a file, `--json`). */
export const noProgress: Progress = {
  activity: () => undefined,
  write: (stream, text) => void stream.write(text),
  stop: () => undefined,
};

/**
 * A spinner on `err` when it is a terminal, counting from now; `noProgress` otherwise. `out` is the
 * run's stdout: when it is the same terminal, its writes take the spinner off too.
 */
export function startProgress(
  streams: { out: NodeJS.WritableStream; err: NodeJS.WritableStream },
  initial = 'Thinking',
): Progress {
  const err = streams.err as Partial<WriteStream> & NodeJS.WritableStream;
  if (err.isTTY !== true) return noProgress;
  const started = performance.now();
  let label: string | null = initial;
  // Characters the spinner occupies now (0: not drawn).
  let drawn = 0;
  // Whether the cursor is at the start of a line: output that ends mid-line keeps the spinner away.
  let lineStart = true;
  let frame = 0;
  const clear = () => {
    if (drawn === 0) return;
    err.write(`\r${' '.repeat(drawn)}\r`);
    drawn = 0;
  };
  const draw = () => {
    if (label === null || !lineStart) return;
    const width = Math.max((err.columns || 80) - 1, 10);
    const plain = `${frames[frame++ % frames.length]} ${label} · ${elapsed(performance.now() - started)}`;
    const text = plain.length > width ? plain.slice(0, width) : plain;
    // A shorter line than the one drawn before would leave its end behind.
    if (text.length < drawn) clear();
    err.write(`\r${styleText('dim', text, { stream: err })}`);
    drawn = text.length;
  };
  const timer = setInterval(draw, tickMs);
  // The spinner never keeps the process alive.
  timer.unref();
  draw();
  return {
    activity(next) {
      label = next === null ? null : terminalSafe(next);
      if (label === null) clear();
    },
    write(stream, text) {
      if (text === '') return;
      const toTerminal = stream === err || (stream as Partial<WriteStream>).isTTY === true;
      if (!toTerminal) {
        stream.write(text);
        return;
      }
      clear();
      stream.write(text);
      lineStart = text.endsWith('\n');
    },
    stop() {
      clearInterval(timer);
      label = null;
      clear();
    },
  };
}

/** `7s`, `1m 05s`, `1h 02m`. */
export function elapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}
