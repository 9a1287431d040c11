import {
  closeSync,
  existsSync,
  fchmodSync,
  fstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

export interface RotatingFileOptions {
  /** Size past which the file is rotated, in bytes (default 10 MiB). */
  maxBytes?: number;
  /** Rotated files kept: `.1` (the newest) to `.N` (default 3). */
  keep?: number;
}

/**
 * A log file appended to line by line, synchronously (a line is on disk before the service goes on, and
 * lines of one process never interleave), with mode 0600 (lines name projects, paths and errors). A line
 * that would take it past `maxBytes` goes to a fresh file: the full one becomes `.1`, `.1` becomes `.2`,
 * and so on; the oldest beyond `keep` is dropped. Opened at the first line, so a service that logs
 * nothing leaves no file.
 */
export class RotatingFile {
  readonly path: string;
  readonly #maxBytes: number;
  readonly #keep: number;
  #fd: number | undefined;
  #size = 0;

  constructor(path: string, options: RotatingFileOptions = {}) {
    this.path = path;
    this.#maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
    this.#keep = options.keep ?? 3;
  }

  /** Appends `line`; throws what the file system says (a full disk), and the next line tries again. */
  write(line: string): void {
    const bytes = Buffer.byteLength(line);
    if (this.#fd === undefined) this.#open();
    if (this.#size > 0 && this.#size + bytes > this.#maxBytes) this.#rotate();
    writeSync(this.#fd as number, line);
    this.#size += bytes;
  }

  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }

  #open(): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const fd = openSync(this.path, 'a', 0o600);
    // A file made before (or by hand) keeps its mode on open: made private here.
    fchmodSync(fd, 0o600);
    this.#size = fstatSync(fd).size;
    this.#fd = fd;
  }

  #rotate(): void {
    this.close();
    if (this.#keep === 0) rmSync(this.path, { force: true });
    for (let index = this.#keep; index >= 1; index--) {
      const from = index === 1 ? this.path : `${this.path}.${index - 1}`;
      if (existsSync(from)) renameSync(from, `${this.path}.${index}`);
    }
    this.#open();
  }
}
