// The failing part of a failed check's log, for the agent that fixes it: read for a few failed checks
// per read of a merge request, in parallel, each bounded; a log that cannot be read is null, never a
// failed read of the merge request.

/** The most characters of one check's log. */
export const maxCheckLogChars = 8_000;
/** The most failed checks whose logs one read of a merge request asks for. */
export const maxCheckLogReads = 10;

/**
 * `read` for the first `maxCheckLogReads` items `failed` says failed, all at once. Per item: undefined
 * when it did not fail, null when its log is empty, was not asked for (past the limit) or could not be
 * read, else the log.
 */
export async function readCheckLogs<Item>(
  items: readonly Item[],
  failed: (item: Item) => boolean,
  read: (item: Item) => Promise<string | null>,
): Promise<(string | null | undefined)[]> {
  let asked = 0;
  return Promise.all(
    items.map(async (item) => {
      if (!failed(item)) return undefined;
      if (asked++ >= maxCheckLogReads) return null;
      try {
        const log = await read(item);
        return log?.trim() ? log : null;
      } catch {
        // Say nothing else: the check itself, its summary and its link are still read.
        return null;
      }
    }),
  );
}

const cutMark = '…';
// How far back a cut looks for a line break, so the log starts or ends with a whole line.
const lineSlack = 200;

/** `text`'s start, at most `maxCheckLogChars`, cut after a whole line where one is near. */
export function keepStart(text: string, max = maxCheckLogChars): string {
  if (text.length <= max) return text;
  let head = text.slice(0, max - cutMark.length - 1);
  const end = head.lastIndexOf('\n');
  if (end >= 0 && head.length - end < lineSlack) head = head.slice(0, end);
  return `${head}\n${cutMark}`;
}

/** `text`'s end, at most `maxCheckLogChars`, starting at a whole line where one is near. */
export function keepEnd(text: string, max = maxCheckLogChars): string {
  if (text.length <= max) return text;
  let tail = text.slice(text.length - (max - cutMark.length - 1));
  const start = tail.indexOf('\n');
  if (start >= 0 && start < lineSlack) tail = tail.slice(start + 1);
  return `${cutMark}\n${tail}`;
}

// Ample raw text for `maxCheckLogChars` of clean text: a trace colours most lines.
const rawTail = 64 * 1024;
// GitLab's collapsible sections: `section_start:TIME:NAME[OPTIONS]\r\e[0K` and `section_end:TIME:NAME\r\e[0K`.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the ESC of the marker's `\e[0K` is matched
const sectionMarker = /section_(?:start|end):\d+:[^\r\n]*?\r\u001b\[0K/g;
// CSI sequences (colours, erase line), OSC sequences (titles, links) and two-character escapes.
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape codes are what is matched
const ansi = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;

/**
 * The end of a GitLab job's trace as a person reads it on the job's page: without section markers and
 * ANSI escape codes, each line as a terminal shows it after carriage returns (progress bars), at most
 * `maxCheckLogChars`; null when nothing is left.
 */
export function traceTail(trace: string): string | null {
  let raw = trace;
  if (raw.length > rawTail) {
    raw = raw.slice(raw.length - rawTail);
    raw = raw.slice(raw.indexOf('\n') + 1);
  }
  const lines = raw
    .replace(sectionMarker, '')
    .replace(ansi, '')
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => line.split('\r').findLast((part) => part !== '') ?? '');
  const text = lines.join('\n').trim();
  if (!text) return null;
  return keepEnd(raw === trace ? text : `${cutMark}\n${text}`);
}
