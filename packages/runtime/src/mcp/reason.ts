const maxReasonChars = 300;

/**
 * A short, single-line reason for an error: HTML error pages, stacks and runs of whitespace stay out of it.
 * Free of the MCP SDK, so the meta tools can explain failures without loading it.
 */
export function shortReason(error: unknown, prefix = ''): string {
  let text = prefix + (error instanceof Error ? error.message : String(error));
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') text = `${text} (${cause.code})`;
  else if (typeof cause?.message === 'string') text = `${text} (${cause.message})`;
  const line = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > maxReasonChars ? `${line.slice(0, maxReasonChars - 1)}…` : line;
}
