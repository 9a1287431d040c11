import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../errors/index.ts';
import { writeFileAtomic } from '../files/index.ts';

/** Spec section 8: memory keeps at most this many entries per category; the oldest go first. */
export const maxEntriesPerCategory = 50;

export interface MemoryEntry {
  category: string;
  content: string;
  created_at: string;
}

const fileSchema = z.object({
  entries: z.array(z.object({ category: z.string(), content: z.string(), created_at: z.string() })),
});

/** Where a project's memory lives: beside its configuration, so it travels with the project. */
export function memoryPath(workdir: string): string {
  return join(workdir, '.runtime', 'memory.json');
}

// Saves to one file are serialised within the process, so two tool calls never lose each other's entry.
const queues = new Map<string, Promise<unknown>>();

/**
 * Project memory: facts the agent saved for later tasks in this project (conventions, commands that
 * work, decisions), grouped by category. Read at the start of every run into the system prompt.
 */
export class ProjectMemory {
  readonly path: string;

  constructor(workdir: string) {
    this.path = memoryPath(workdir);
  }

  /** Every entry, oldest first; none when there is no memory file yet. */
  async entries(): Promise<MemoryEntry[]> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    let parsed: z.infer<typeof fileSchema>;
    try {
      parsed = fileSchema.parse(JSON.parse(text));
    } catch (error) {
      throw new ConfigError(`Project memory ${this.path} is not valid: ${(error as Error).message}`, {
        path: this.path,
      });
    }
    return parsed.entries;
  }

  /** Adds an entry; a category over its limit drops its oldest. Returns how many the category now holds. */
  async save(
    category: string,
    content: string,
    now = new Date(),
  ): Promise<{ kept: number; dropped: number }> {
    const previous = queues.get(this.path) ?? Promise.resolve();
    const next = previous.then(async () => {
      const entries = await this.entries();
      entries.push({ category, content, created_at: now.toISOString() });
      const inCategory = entries.filter((entry) => entry.category === category);
      const dropped = Math.max(0, inCategory.length - maxEntriesPerCategory);
      const gone = new Set(inCategory.slice(0, dropped));
      await this.#write(entries.filter((entry) => !gone.has(entry)));
      return { kept: inCategory.length - dropped, dropped };
    });
    queues.set(
      this.path,
      next.catch(() => undefined),
    );
    return next;
  }

  /** Temp file and rename: a reader never sees half a file. */
  async #write(entries: MemoryEntry[]): Promise<void> {
    await writeFileAtomic(this.path, `${JSON.stringify({ entries }, null, 2)}\n`);
  }
}

/** The memory as the system prompt shows it: grouped by category, newest last, bounded in size. */
export function memoryPromptLines(entries: readonly MemoryEntry[], maxChars = 6000): string[] {
  if (entries.length === 0) return [];
  const lines = ['', '# Project memory', 'Saved in earlier tasks in this project (save_memory adds to it):'];
  const categories = [...new Set(entries.map((entry) => entry.category))];
  let used = 0;
  // The newest entries matter most: fill from the end, then show in order.
  const shown = new Set<MemoryEntry>();
  for (const entry of [...entries].reverse()) {
    used += entry.content.length + entry.category.length + 6;
    if (used > maxChars) break;
    shown.add(entry);
  }
  for (const category of categories) {
    const items = entries.filter((entry) => entry.category === category && shown.has(entry));
    if (items.length === 0) continue;
    lines.push(`## ${category}`, ...items.map((entry) => `- ${entry.content.replace(/\s*\n\s*/g, ' ')}`));
  }
  return lines;
}
