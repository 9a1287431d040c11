/**
 * Text whose backquoted parts are code, as the service quotes commands in its messages ("`npm ci`
 * succeeded in 3.1 s"). An unpaired backquote leaves the text as it is.
 */
export function CodeSpans({ text }: { text: string }) {
  const parts = text.split('`');
  if (parts.length % 2 === 0) return text;
  return parts.map((part, index) =>
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts never move, so their place is their identity.
    index % 2 === 1 ? <code key={index}>{part}</code> : part,
  );
}
