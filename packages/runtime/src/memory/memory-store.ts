import { createHash } from 'node:crypto';
import { readFile, rename } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError, InvalidParamsError } from '../errors/index.ts';
import { writeFileAtomic } from '../files/index.ts';

/** Spec section 8: memory keeps at most this many entries per category; the oldest go first. */
export const maxEntriesPerCategory = 50;

/** Spec section 2: the four categories of project memory, and no others. */
export const memoryCategories = ['conventions', 'patterns', 'issues', 'decisions'] as const;
export type MemoryCategory = (typeof memoryCategories)[number];

export interface MemoryEntry {
  category: MemoryCategory;
  content: string;
  created_at: string;
}

const fileSchema = z.object({
  project: z.string().optional(),
  entries: z.array(z.object({ content: z.string(), created_at: z.string() })),
});
const legacySchema = z.object({
  entries: z.array(z.object({ category: z.string(), content: z.string(), created_at: z.string() })),
});

/**
 * Where a project's memory lives (spec section 2): a directory per project under the user's runtime
 * directory, named after the project's folder and a hash of its path, so two checkouts never share one.
 */
export function memoryDir(runtimeDir: string, workdir: string): string {
  const path = resolve(workdir);
  const hash = createHash('sha256').update(path).digest('hex').slice(0, 12);
  const name = basename(path).replace(/[^A-Za-z0-9._-]/g, '_') || 'root';
  return join(runtimeDir, 'memory', `${name}-${hash}`);
}

/** Where memory was kept before it moved under the runtime directory; read once, then migrated. */
export function legacyMemoryPath(workdir: string): string {
  return join(workdir, '.runtime', 'memory.json');
}

// Saves to one project are serialised within the process, so two tool calls never lose each other's entry.
const queues = new Map<string, Promise<unknown>>();

/**
 * Project memory: facts the agent saved for later tasks in this project, in the spec's four categories, one
 * JSON file per category. Read at the start of every run into the system prompt.
 */
export class ProjectMemory {
  readonly dir: string;
  readonly #workdir: string;

  constructor(runtimeDir: string, workdir: string) {
    this.dir = memoryDir(runtimeDir, workdir);
    this.#workdir = resolve(workdir);
  }

  /** The file of one category. */
  pathOf(category: MemoryCategory): string {
    return join(this.dir, `${category}.json`);
  }

  /** Every entry, oldest first within each category; none when nothing was saved yet. */
  async entries(): Promise<MemoryEntry[]> {
    await this.#serialised(() => this.#migrate());
    const all = await Promise.all(memoryCategories.map((category) => this.#read(category)));
    return all.flat();
  }

  /** Adds an entry; a category over its limit drops its oldest. Refuses a category the spec does not have. */
  async save(
    category: string,
    content: string,
    now = new Date(),
  ): Promise<{ kept: number; dropped: number }> {
    const known = asCategory(category);
    return this.#serialised(async () => {
      await this.#migrate();
      const entries = await this.#read(known);
      entries.push({ category: known, content, created_at: now.toISOString() });
      const dropped = Math.max(0, entries.length - maxEntriesPerCategory);
      await this.#write(known, entries.slice(dropped));
      return { kept: entries.length - dropped, dropped };
    });
  }

  #serialised<T>(work: () => Promise<T>): Promise<T> {
    const next = (queues.get(this.dir) ?? Promise.resolve()).then(work);
    queues.set(
      this.dir,
      next.catch(() => undefined),
    );
    return next;
  }

  async #read(category: MemoryCategory): Promise<MemoryEntry[]> {
    const path = this.pathOf(category);
    const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (text === undefined) return [];
    try {
      return fileSchema.parse(JSON.parse(text)).entries.map((entry) => ({ category, ...entry }));
    } catch (error) {
      throw new ConfigError(`Project memory ${path} is not valid: ${(error as Error).message}`, { path });
    }
  }

  async #write(category: MemoryCategory, entries: MemoryEntry[]): Promise<void> {
    const file = {
      project: this.#workdir,
      entries: entries.map(({ content, created_at }) => ({ content, created_at })),
    };
    await writeFileAtomic(this.pathOf(category), `${JSON.stringify(file, null, 2)}\n`);
  }

  /**
   * Moves a project's old `.runtime/memory.json` into the per-category files, once: entries of the four
   * categories keep theirs, any other category becomes a `patterns` entry that names it. The old file is
   * renamed to `memory.json.migrated`, so nothing is lost.
   */
  async #migrate(): Promise<void> {
    const legacy = legacyMemoryPath(this.#workdir);
    const text = await readFile(legacy, 'utf8').catch(() => undefined);
    if (text === undefined) return;
    let old: z.infer<typeof legacySchema>;
    try {
      old = legacySchema.parse(JSON.parse(text));
    } catch (error) {
      throw new ConfigError(`Project memory ${legacy} is not valid: ${(error as Error).message}`, {
        path: legacy,
      });
    }
    for (const category of memoryCategories) {
      const moved = old.entries.flatMap((entry): MemoryEntry[] => {
        if (entry.category === category) return [{ ...entry, category }];
        if (category === 'patterns' && !isCategory(entry.category)) {
          return [
            { category, content: `(${entry.category}) ${entry.content}`, created_at: entry.created_at },
          ];
        }
        return [];
      });
      if (moved.length === 0) continue;
      const merged = [...(await this.#read(category)), ...moved].sort((a, b) =>
        a.created_at.localeCompare(b.created_at),
      );
      await this.#write(category, merged.slice(-maxEntriesPerCategory));
    }
    await rename(legacy, `${legacy}.migrated`);
  }
}

function isCategory(value: string): value is MemoryCategory {
  return (memoryCategories as readonly string[]).includes(value);
}

function asCategory(category: string): MemoryCategory {
  if (isCategory(category)) return category;
  throw new InvalidParamsError(
    `Unknown memory category '${category}': use one of ${memoryCategories.join(', ')}.`,
    { field: 'category', allowed: [...memoryCategories] },
  );
}

/** The memory as the system prompt shows it, under "Project Memory": by category, bounded in size. */
export function memoryPromptLines(entries: readonly MemoryEntry[], maxChars = 6000): string[] {
  if (entries.length === 0) return [];
  const lines = ['', '# Project Memory', 'Saved in earlier tasks in this project (save_memory adds to it):'];
  let used = 0;
  // The newest entries matter most: fill from the newest, then show each category in order.
  const shown = new Set<MemoryEntry>();
  for (const entry of [...entries].sort((a, b) => b.created_at.localeCompare(a.created_at))) {
    used += entry.content.length + entry.category.length + 6;
    if (used > maxChars) break;
    shown.add(entry);
  }
  for (const category of memoryCategories) {
    const items = entries.filter((entry) => entry.category === category && shown.has(entry));
    if (items.length === 0) continue;
    lines.push(`## ${category}`, ...items.map((entry) => `- ${entry.content.replace(/\s*\n\s*/g, ' ')}`));
  }
  return lines;
}
