/** Cuts text longer than `max` characters, marking the cut (the spec shows tool arguments up to 120). */
export function truncate(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** A tool call as one line: name and arguments, the arguments cut at 120 characters. */
export function formatToolCall(name: string, args: Record<string, unknown>): string {
  return `${name}(${truncate(JSON.stringify(args), 120)})`;
}

/** The first lines of a tool result, with a count of what was left out. */
export function previewResult(result: string, lines = 3): string {
  const all = result.split('\n');
  const shown = all.slice(0, lines).map((line) => truncate(line, 160));
  const rest = all.length - shown.length;
  return rest > 0 ? [...shown, `... (${rest} more lines)`].join('\n') : shown.join('\n');
}
