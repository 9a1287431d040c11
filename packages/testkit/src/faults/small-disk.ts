import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A small tmpfs mounted for one test: fill it, free it, make it read-only and writable again. */
export interface SmallDisk {
  /** The mount point. */
  readonly path: string;
  /** Writes a filler file until the disk has no byte left (ENOSPC). */
  fill(): void;
  /** Removes the filler file. */
  free(): void;
  /** Remounts read-only; fails while a file on it is open for writing (close the store first). */
  readOnly(): void;
  /** Remounts read-write. */
  writable(): void;
  /** Unmounts (lazily, so an open file cannot keep it) and removes the mount point. */
  remove(): void;
}

const filler = '.keel-test-filler';

/**
 * Why a small disk cannot be mounted here (not root, no `mount`, a kernel or container that refuses), or
 * undefined when it can: for `describe.skipIf`. Tries a real mount once per process.
 */
export function smallDiskUnavailable(): string | undefined {
  probed ??= probe();
  return probed;
}
let probed: string | undefined | null = null;

function probe(): string | undefined {
  if (process.platform !== 'linux') return `mounting a tmpfs needs Linux (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root (id -u is not 0)';
  try {
    mountSmallDisk({ sizeBytes: 64 * 1024 }).remove();
    return undefined;
  } catch (error) {
    return `mounting a tmpfs failed: ${(error as Error).message.trim()}`;
  }
}

/** Mounts a fresh tmpfs of `sizeBytes` (default 8 MiB) on a new temp directory. Needs root on Linux. */
export function mountSmallDisk(options: { sizeBytes?: number } = {}): SmallDisk {
  const path = mkdtempSync(join(tmpdir(), 'keel-small-disk-'));
  try {
    mount('-t', 'tmpfs', '-o', `size=${options.sizeBytes ?? 8 * 1024 * 1024},mode=0755`, 'tmpfs', path);
  } catch (error) {
    rmdirSync(path);
    throw error;
  }
  return {
    path,
    fill() {
      const fd = openSync(join(path, filler), 'a');
      try {
        // Big writes first, then small ones for the last partial page: nothing is left for anyone else.
        for (const size of [1024 * 1024, 64 * 1024, 4096, 512, 1]) {
          const chunk = Buffer.alloc(size, 0x2e);
          try {
            for (;;) writeSync(fd, chunk);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(join(path, filler), { force: true });
    },
    readOnly() {
      mount('-o', 'remount,ro', path);
    },
    writable() {
      mount('-o', 'remount,rw', path);
    },
    remove() {
      try {
        execFileSync('umount', ['-l', path], { stdio: 'pipe' });
      } finally {
        rmSync(path, { recursive: true, force: true });
      }
    },
  };
}

function mount(...args: string[]): void {
  try {
    execFileSync('mount', args, { stdio: 'pipe' });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(`mount ${args.join(' ')}: ${stderr || (error as Error).message}`);
  }
}
