/** Split text into pieces of at most `size` characters (by code point, so emoji stay whole). */
export function splitText(text: string, size: number): string[] {
  const chars = Array.from(text);
  const pieces: string[] = [];
  for (let start = 0; start < chars.length; start += size) {
    pieces.push(chars.slice(start, start + size).join(''));
  }
  return pieces;
}

/** Argument fragments: at most `size` characters, but at least three pieces when the text allows. */
export function splitArguments(text: string, size: number): string[] {
  const length = Array.from(text).length;
  return splitText(text, Math.max(1, Math.min(size, Math.ceil(length / 3))));
}
