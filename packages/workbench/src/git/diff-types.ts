/** One changed file of a diff. Counts are lines; a binary file counts 0 and has `binary: true`. */
export interface FileChange {
  path: string;
  /** The previous path of a renamed (or copied) file. */
  old_path?: string;
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  additions: number;
  deletions: number;
  binary: boolean;
}

export interface RepoDiff {
  files: FileChange[];
  /** git's unified diff, cut at a line boundary with a marker line when larger than the limit. */
  patch: string;
  additions: number;
  deletions: number;
  /** True when `patch` was cut (the file list and counts are always complete). */
  truncated?: boolean;
}
