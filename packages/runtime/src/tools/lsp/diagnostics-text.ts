import type { LspDiagnostic } from './lsp-types.ts';
import { cut, fromLspPosition } from './positions.ts';

/** More diagnostics than this and the rest are counted, not listed. */
export const maxListedDiagnostics = 200;

const severities = ['error', 'warning', 'info', 'hint'] as const;
type Severity = (typeof severities)[number];

/** LSP's 1–4; a diagnostic without one is an error (the spec leaves it to the client). */
function severityOf(diagnostic: LspDiagnostic): Severity {
  return severities[(diagnostic.severity ?? 1) - 1] ?? 'error';
}

/**
 * A file's diagnostics as the model reads them: a header with the counts, then one entry per problem in
 * position order, `path:line:col-line:col severity source(code): message`, with the line it is on.
 * Hints (unused names, deprecations shown faded in editors) are counted but listed only when asked for.
 */
export function diagnosticsText(options: {
  shown: string;
  lines: readonly string[];
  diagnostics: readonly LspDiagnostic[];
  server: string;
  includeHints: boolean;
}): string {
  const { shown, lines, server } = options;
  const counts = new Map<Severity, number>();
  for (const diagnostic of options.diagnostics) {
    counts.set(severityOf(diagnostic), (counts.get(severityOf(diagnostic)) ?? 0) + 1);
  }
  const hints = counts.get('hint') ?? 0;
  const listed = [...options.diagnostics]
    .filter((diagnostic) => options.includeHints || severityOf(diagnostic) !== 'hint')
    .sort(
      (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
    );
  const hintNote =
    hints > 0 && !options.includeHints
      ? ` (${hints} ${hints === 1 ? 'hint' : 'hints'} not listed: call again with include_hints true to see them)`
      : '';
  if (listed.length === 0) return `No problems in ${shown} (${server}).${hintNote}`;

  const summary = severities
    .filter((severity) => (counts.get(severity) ?? 0) > 0)
    .map((severity) => plural(counts.get(severity) ?? 0, severity))
    .join(', ');
  const entries = listed.slice(0, maxListedDiagnostics).map((diagnostic) => entry(diagnostic, shown, lines));
  const more =
    listed.length > maxListedDiagnostics ? [`… and ${listed.length - maxListedDiagnostics} more.`] : [];
  return [`${shown}: ${summary} (${server})${hintNote}`, ...entries, ...more].join('\n');
}

function entry(diagnostic: LspDiagnostic, shown: string, lines: readonly string[]): string {
  const { start, end } = diagnostic.range;
  const from = fromLspPosition(start, lines[start.line]);
  const to = fromLspPosition(end, lines[end.line]);
  const code = diagnostic.code === undefined || diagnostic.code === '' ? '' : String(diagnostic.code);
  const origin = diagnostic.source ? `${diagnostic.source}${code ? `(${code})` : ''}` : code;
  // pyright indents the details of a message with no-break spaces (for editors); plain ones read the same.
  const message = diagnostic.message.replaceAll('\u00a0', ' ').trim().split('\n').join('\n    ');
  const head = `${shown}:${from.line}:${from.column}-${to.line}:${to.column} ${severityOf(diagnostic)}${origin ? ` ${origin}` : ''}: ${message}`;
  const lineText = lines[start.line];
  return lineText === undefined ? head : `${head}\n    ${from.line} | ${cut(lineText.trimEnd())}`;
}

function plural(count: number, severity: Severity): string {
  const word = severity === 'info' ? 'info' : `${severity}${count === 1 ? '' : 's'}`;
  return `${count} ${word}`;
}
