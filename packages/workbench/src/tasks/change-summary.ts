import type { FileChange } from '../git/index.ts';

/** The most lines the changed-files summary of a prompt takes: a commit message needs the shape, not every file. */
export const maxSummaryLines = 200;

/**
 * The changed files of a task for a model's prompt, one line each (`- app/src/a.ts (modified, +3 -1)`). Past
 * `maxLines` files, the folders that hold them instead, largest first, each with its count and totals
 * (`- app/src/ (4,812 files, +9,624 -0)`), so the prompt stays a few kilobytes for any number of files.
 */
export function changeSummary(
  repositories: readonly { repository: string; files: readonly FileChange[] }[],
  maxLines = maxSummaryLines,
): string {
  const files = repositories.flatMap((repo) =>
    repo.files.map((file) => ({ ...file, path: `${repo.repository}/${file.path}` })),
  );
  if (files.length === 0) return '(no changes)';
  if (files.length <= maxLines) {
    return files
      .map((file) => `- ${file.path} (${file.status}, +${file.additions} -${file.deletions})`)
      .join('\n');
  }
  // Deeper folders while they still fit, so the summary says as much as it can (a single repository is
  // always opened up, even when its folders then do not all fit).
  let groups = byFolder(files, 1);
  for (let depth = 2; depth <= 5; depth++) {
    const deeper = byFolder(files, depth);
    if (deeper.length > maxLines - 1 && groups.length > 1) break;
    groups = deeper;
    if (groups.length > maxLines - 1) break;
  }
  const shown = groups.slice(0, maxLines - 1);
  const additions = files.reduce((sum, file) => sum + file.additions, 0);
  const deletions = files.reduce((sum, file) => sum + file.deletions, 0);
  const lines = [
    `${files.length.toLocaleString('en')} files changed (+${additions.toLocaleString('en')} -${deletions.toLocaleString('en')}), by folder:`,
    ...shown.map((group) => {
      const lines = `+${group.additions.toLocaleString('en')} -${group.deletions.toLocaleString('en')}`;
      // A file shallower than the folders shown stands for itself.
      if (!group.folder.endsWith('/')) return `- ${group.folder} (${lines})`;
      const count = group.count === 1 ? '1 file' : `${group.count.toLocaleString('en')} files`;
      return `- ${group.folder} (${count}, ${lines})`;
    }),
  ];
  if (groups.length > shown.length) lines.push(`- … ${groups.length - shown.length} more folders`);
  return lines.join('\n');
}

interface FolderGroup {
  folder: string;
  count: number;
  additions: number;
  deletions: number;
}

/** Files grouped by their first `depth` folders (a file at a shallower place is its own folder). */
function byFolder(files: readonly FileChange[], depth: number): FolderGroup[] {
  const groups = new Map<string, FolderGroup>();
  for (const file of files) {
    const parts = file.path.split('/');
    const folder = parts.length > depth ? `${parts.slice(0, depth).join('/')}/` : file.path;
    const group = groups.get(folder) ?? { folder, count: 0, additions: 0, deletions: 0 };
    group.count += 1;
    group.additions += file.additions;
    group.deletions += file.deletions;
    groups.set(folder, group);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count || a.folder.localeCompare(b.folder));
}
