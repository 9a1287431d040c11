export { branchNameProblem } from '@keel/protocol/workbench';

/** `keel/<slug>-<short id>`: the default branch of a task, from its description. */
export function defaultBranch(description: string, taskId: string): string {
  const slug = description
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  const short = taskId.slice(-6).toLowerCase();
  return `keel/${slug || 'task'}-${short}`;
}
