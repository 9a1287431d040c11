import { createInterface } from 'node:readline';
import { type IgnoredConfigKey, loadConfigReport } from '@keel/runtime';
import { readEnv, trustFolder } from '@keel/runtime/internal';
import type { CliIo } from '../io.ts';
import { terminalSafe } from '../render/terminal-safe.ts';

/** How a folder is named in a command shown to the user: bare when the shell takes it as is. */
export function shellWord(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The ignored keys, one per line: `  key = value   (why)`, values as JSON with secrets already masked. Keys
 * and values are the repository's: shown terminal-safe, so one cannot move the cursor and redraw the prompt.
 */
export function ignoredLines(ignored: readonly IgnoredConfigKey[]): string {
  return ignored
    .map(({ key, value, why }) => {
      const shown = JSON.stringify(value) ?? 'null';
      return terminalSafe(
        `  ${key} = ${shown.length > 120 ? `${shown.slice(0, 117)}...` : shown}   (${why})`,
      );
    })
    .join('\n');
}

/**
 * Before `keel run`, `keel chat` and `keel tui` start: when the workdir's `.runtime/config.json` asks for
 * keys that apply only when approved and it is not approved as it is now, shows exactly what the file would
 * change and asks once: Trust (the file as shown, remembered in the global `trusted_project_configs`) or
 * Not now (this time without them; asked again next time, as nothing is remembered for a refusal). On a stdin that is not a terminal
 * (CI, pipes) it does not ask: it says once on stderr which keys were ignored and how to trust the folder.
 * A broken config file is left for the command itself to report.
 */
export async function confirmProjectTrust(io: CliIo, workdir: string): Promise<void> {
  const home = readEnv(io.env).home;
  let report: ReturnType<typeof loadConfigReport>;
  try {
    report = loadConfigReport(home, workdir);
  } catch {
    return;
  }
  if (report.trusted || report.ignored.length === 0) return;
  const command = terminalSafe(`keel trust ${shellWord(report.projectDir)}`);
  const input = io.in ?? process.stdin;
  const head = `${terminalSafe(report.projectFile)} asks for settings that apply only in a trusted folder:\n${ignoredLines(report.ignored)}\n`;
  if ((input as { isTTY?: boolean }).isTTY !== true) {
    io.err.write(`Note: ${head}They are ignored. To apply them, trust the folder: ${command}\n`);
    return;
  }
  io.err.write(
    `${head}A repository you did not write can use these to run commands, send your keys elsewhere or loosen the sandbox.\n` +
      'Trust this folder? [t]rust / [n]ot now: ',
  );
  const answer = await readAnswer(input);
  if (/^(t|trust|y|yes)$/i.test(answer)) {
    // Pins what was shown: a file changed while the question was open stays untrusted.
    const { file } = await trustFolder(home, report.projectDir, report.pin);
    io.err.write(
      `Trusted ${file} as shown: it applies until it asks for anything else (keel untrust to undo).\n`,
    );
  } else {
    io.err.write(`Not now: running without them (asked again next time; ${command} to stop asking).\n`);
  }
}

/** One line from the terminal (empty at end of input). */
async function readAnswer(input: NodeJS.ReadableStream): Promise<string> {
  const lines = createInterface({ input, terminal: false });
  try {
    const line = await new Promise<string>((resolve) => {
      lines.once('line', resolve);
      lines.once('close', () => resolve(''));
    });
    return line.trim();
  } finally {
    lines.close();
  }
}
