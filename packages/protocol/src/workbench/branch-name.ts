/**
 * Why `name` is not a valid branch name by git's ref rules (`git check-ref-format --branch`), or null.
 * Checked when the task is created, so a bad branch is a 400 then, not a failed init later.
 */
export function branchNameProblem(name: string): string | null {
  if (name.length === 0 || name.length > 200) return 'must be 1 to 200 characters';
  if (name === '@') return "cannot be '@'";
  if (name.startsWith('-')) return "cannot start with '-'";
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//'))
    return "cannot start or end with '/' or contain '//'";
  if (name.endsWith('.')) return "cannot end with '.'";
  if (name.includes('..')) return "cannot contain '..'";
  if (name.includes('@{')) return "cannot contain '@{'";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: git forbids control characters in refs
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name))
    return 'cannot contain spaces, control characters or any of ~ ^ : ? * [ \\';
  for (const component of name.split('/')) {
    if (component.startsWith('.')) return "no part between slashes may start with '.'";
    if (component.endsWith('.lock')) return "no part between slashes may end with '.lock'";
  }
  return null;
}
