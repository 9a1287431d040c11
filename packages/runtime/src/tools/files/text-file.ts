/** Helpers shared by the tools that read file contents as text. */

// Like git and ripgrep, only the start of a file is inspected to decide whether it is text.
const sniffBytes = 8192;
// Share of undecodable characters above which a NUL-free file still counts as binary.
const maxInvalidShare = 0.1;

/** True for content that would show as garbage: a NUL byte, or mostly invalid UTF-8, near the start. */
export function isBinary(content: Uint8Array): boolean {
  const sample = content.subarray(0, sniffBytes);
  if (sample.includes(0)) return true;
  if (sample.length === 0) return false;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(sample);
  let invalid = 0;
  for (const char of text) if (char === '\uFFFD') invalid++;
  // One replacement is allowed for a multi-byte character cut at the sample's end.
  return invalid > 1 && invalid / text.length > maxInvalidShare;
}

/** Lines of a text, without their `\n` or `\r\n`; a final newline does not start an extra line. */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** Human size for messages: `512 bytes`, `1.5 KB`, `12.0 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Cuts a line to `max` characters, marking the cut so the model knows text is missing. */
export function cutLine(line: string, max: number): string {
  return line.length > max ? `${line.slice(0, max)}… [line cut, ${line.length} chars]` : line;
}
