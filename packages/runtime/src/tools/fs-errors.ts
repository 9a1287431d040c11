import { ToolError } from '../errors/index.ts';

/**
 * Turns a Node file-system error into a ToolError whose message tells the model what to do next.
 * `shown` is the path as displayed, `path` the argument as given (kept in details).
 */
export function fileSystemError(
  error: unknown,
  shown: string,
  path: string,
  kind: 'File' | 'Directory' | 'Path' = 'File',
): ToolError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new ToolError(`${kind} not found: ${shown}. Check the path with list_directory or glob.`, {
      path,
    });
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new ToolError(`The operating system denied access to ${shown} (${code}).`, { path });
  }
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new ToolError(
      `Cannot write ${shown}: the disk is full (${code}). The file was left as it was; free some space, then try again.`,
      { path, reason: 'disk_full', code },
    );
  }
  if (code === 'EROFS') {
    return new ToolError(`Cannot write ${shown}: the file system is read-only (EROFS).`, {
      path,
      reason: 'read_only',
      code,
    });
  }
  if (code === 'EISDIR') {
    return new ToolError(`${shown} is a directory, not a file. Use list_directory to see its contents.`, {
      path,
    });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new ToolError(`Cannot access ${shown}: ${reason}`, { path }, { cause: error });
}
