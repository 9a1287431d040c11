import { ToolError } from '../../errors/index.ts';

/** One change a tool made to a file. Content is kept as bytes so undo restores the file exactly. */
export interface FileChange {
  /** 1, 2, 3, … in the order the changes were made. */
  readonly id: number;
  /** The tool that made it: write_file, edit_file, patch. */
  readonly tool: string;
  /** Real absolute path of the file. */
  readonly path: string;
  /** Content before the change; null when the change created the file. */
  readonly before: Uint8Array | null;
  /** Content after the change; null when the change deleted the file. */
  readonly after: Uint8Array | null;
  readonly at: Date;
  /** `undone` after undo_file, `applied` again after redo_file. */
  state: 'applied' | 'undone';
}

/** Limits of a FileHistory; the oldest changes are forgotten first. */
export interface FileHistoryLimits {
  /** At most this many changes (default 200). */
  maxChanges?: number;
  /** At most this many bytes of kept content (default 64 MiB); the newest change is always kept. */
  maxBytes?: number;
}

/**
 * The file changes of one run (or one workdir's `POST /tool` calls), in memory, for undo_file, redo_file
 * and list_file_changes. Per file it works like an editor: undo walks back, redo walks forward, and a new
 * change drops the changes that were undone. It does not touch files itself; the tools do.
 *
 * @example
 * const history = new FileHistory();
 * history.record({ tool: 'write_file', path: '/repo/a.txt', before: null, after: Buffer.from('hi') });
 * history.nextUndo('/repo/a.txt'); // that change
 */
export class FileHistory {
  readonly #changes: FileChange[] = [];
  readonly #maxChanges: number;
  readonly #maxBytes: number;
  #nextId = 1;
  #bytes = 0;
  /** The clock for `at`; injectable for tests. */
  readonly #now: () => Date;

  constructor(limits: FileHistoryLimits = {}, now: () => Date = () => new Date()) {
    this.#maxChanges = limits.maxChanges ?? 200;
    this.#maxBytes = limits.maxBytes ?? 64 * 1024 * 1024;
    this.#now = now;
  }

  /** Records a change; the file's undone changes can no longer be redone. */
  record(change: Pick<FileChange, 'tool' | 'path' | 'before' | 'after'>): FileChange {
    for (const dropped of this.#changes.filter((c) => c.path === change.path && c.state === 'undone')) {
      this.#remove(dropped);
    }
    const entry: FileChange = { ...change, id: this.#nextId++, at: this.#now(), state: 'applied' };
    this.#changes.push(entry);
    this.#bytes += sizeOf(entry);
    while (
      this.#changes.length > 1 &&
      (this.#changes.length > this.#maxChanges || this.#bytes > this.#maxBytes)
    ) {
      this.#remove(this.#changes[0]!);
    }
    return entry;
  }

  /** Every kept change, oldest first. */
  list(): readonly FileChange[] {
    return [...this.#changes];
  }

  /** The change undo_file would revert: the file's latest applied change. */
  nextUndo(path: string): FileChange | undefined {
    return this.#changes.findLast((change) => change.path === path && change.state === 'applied');
  }

  /** The change redo_file would re-apply: the file's earliest undone change. */
  nextRedo(path: string): FileChange | undefined {
    return this.#changes.find((change) => change.path === path && change.state === 'undone');
  }

  /** Marks a change undone or applied again, after its tool has changed the file. */
  mark(change: FileChange, state: FileChange['state']): void {
    if (!this.#changes.includes(change)) {
      throw new ToolError(`Change #${change.id} is no longer in the file history.`, { id: change.id });
    }
    change.state = state;
  }

  #remove(change: FileChange): void {
    const index = this.#changes.indexOf(change);
    if (index === -1) return;
    this.#changes.splice(index, 1);
    this.#bytes -= sizeOf(change);
  }
}

function sizeOf(change: FileChange): number {
  return (change.before?.byteLength ?? 0) + (change.after?.byteLength ?? 0);
}
