import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every `.ts` file below `dir`. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * A README's table of error codes (`| 404 | \`A\`, \`B\` (why) |` rows under `## Errors`) as status → codes:
 * the backticked words in capitals outside parentheses.
 */
export function documentedCodes(readmePath: string): Map<number, string[]> {
  const readme = readFileSync(readmePath, 'utf8');
  const start = readme.indexOf('\n## Errors');
  const end = readme.indexOf('\n## ', start + 1);
  const rows = new Map<number, string[]>();
  for (const line of readme.slice(start, end === -1 ? undefined : end).split('\n')) {
    const match = /^\|\s*(\d{3})\s*\|(.*)\|\s*$/.exec(line);
    if (!match) continue;
    const cells = (match[2] ?? '').replace(/\([^)]*\)/g, '');
    rows.set(
      Number(match[1]),
      [...cells.matchAll(/`([A-Z][A-Z_]+)`/g)].map((each) => each[1] as string),
    );
  }
  return rows;
}

/** A code table (code → status) as status → codes, sorted, to compare with `documentedCodes`. */
export function codesByStatus(table: Record<string, number>): Map<number, string[]> {
  const rows = new Map<number, string[]>();
  for (const [code, status] of Object.entries(table)) rows.set(status, [...(rows.get(status) ?? []), code]);
  for (const codes of rows.values()) codes.sort();
  return rows;
}
