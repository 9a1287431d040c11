/** A unified diff of two texts by lines (longest common subsequence), with its counts. */
export interface TextDiff {
  patch: string;
  additions: number;
  deletions: number;
}

type Op = { kind: ' ' | '-' | '+'; line: string };

const context = 3;

/**
 * The unified diff (`---`/`+++` headers, `@@` hunks with 3 lines of context) from `before` to `after`.
 * Plans are small; the table is lines × lines.
 */
export function diffLines(before: string, after: string, names = { from: 'a', to: 'b' }): TextDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = lcsOps(a, b);
  const additions = ops.filter((op) => op.kind === '+').length;
  const deletions = ops.filter((op) => op.kind === '-').length;
  if (additions === 0 && deletions === 0) return { patch: '', additions, deletions };
  const lines = [`--- ${names.from}`, `+++ ${names.to}`];
  // Hunks: runs of changes with up to `context` unchanged lines around them (joined when close).
  let index = 0;
  let oldLine = 1;
  let newLine = 1;
  const positions = ops.map((op) => {
    const at = { op, oldLine, newLine };
    if (op.kind !== '+') oldLine++;
    if (op.kind !== '-') newLine++;
    return at;
  });
  while (index < positions.length) {
    while (index < positions.length && positions[index]?.op.kind === ' ') index++;
    if (index >= positions.length) break;
    const start = Math.max(0, index - context);
    let end = index;
    for (let unchanged = 0; end < positions.length; end++) {
      if (positions[end]?.op.kind === ' ') {
        unchanged++;
        if (unchanged > context * 2) break;
      } else unchanged = 0;
    }
    // Trim trailing context down to `context` lines.
    let last = end - 1;
    while (last > index && positions[last]?.op.kind === ' ') last--;
    const stop = Math.min(positions.length, last + 1 + context);
    const hunk = positions.slice(start, stop);
    const first = hunk[0];
    const oldCount = hunk.filter((each) => each.op.kind !== '+').length;
    const newCount = hunk.filter((each) => each.op.kind !== '-').length;
    lines.push(
      `@@ -${oldCount ? first?.oldLine : (first?.oldLine ?? 1) - 1},${oldCount} +${newCount ? first?.newLine : (first?.newLine ?? 1) - 1},${newCount} @@`,
    );
    for (const each of hunk) lines.push(`${each.op.kind}${each.op.line}`);
    index = stop;
  }
  return { patch: `${lines.join('\n')}\n`, additions, deletions };
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function lcsOps(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const table = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => table[i * (m + 1) + j] ?? 0;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] = a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i] as string });
      i++;
      j++;
    } else if (at(i + 1, j) >= at(i, j + 1)) ops.push({ kind: '-', line: a[i++] as string });
    else ops.push({ kind: '+', line: b[j++] as string });
  }
  while (i < n) ops.push({ kind: '-', line: a[i++] as string });
  while (j < m) ops.push({ kind: '+', line: b[j++] as string });
  return ops;
}
