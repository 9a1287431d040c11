// git refuses a push option that contains a newline (each option travels as one pkt-line) and a pkt-line
// holds at most 65516 bytes. So every value has its line breaks and other control characters replaced by
// single spaces, and a description is cut (with "…") to stay well inside the limit.
const maxDescriptionChars = 16_000;

/**
 * GitLab's merge-request push options (`git push -o ...`): create an MR from the pushed branch into
 * `target` with `title` and an optional `description`. Newlines become spaces (see the rule above).
 */
export function mergeRequestPushOptions(options: {
  target: string;
  title: string;
  description?: string;
}): string[] {
  const result = [
    'merge_request.create',
    `merge_request.target=${oneLine(options.target)}`,
    `merge_request.title=${oneLine(options.title)}`,
  ];
  const description = oneLine(options.description ?? '');
  if (description !== '') {
    const bounded =
      description.length > maxDescriptionChars
        ? `${description.slice(0, maxDescriptionChars - 1)}…`
        : description;
    result.push(`merge_request.description=${bounded}`);
  }
  return result;
}

/** Line breaks (and other control characters) to one space each run; outer whitespace trimmed. */
function oneLine(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
  return value.replace(/[\r\n\u0000-\u001f\u007f]+/g, ' ').trim();
}
