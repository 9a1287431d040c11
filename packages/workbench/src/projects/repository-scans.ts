import { type RepositoryScan, scanRepository, scanToMarkdown } from '../scan/index.ts';
import type { Repository } from './types.ts';

/**
 * The scans of one knowledge generation: each repository scanned once, from the moment the generation is
 * known to start, and its Markdown made once for all four of its layers' prompts.
 */
export class RepositoryScans {
  readonly #scans = new Map<string, { scan: Promise<RepositoryScan>; markdown: Promise<string> }>();

  constructor(repositories: readonly Repository[]) {
    for (const repository of repositories) this.#of(repository);
  }

  scan(repository: Repository): Promise<RepositoryScan> {
    return this.#of(repository).scan;
  }

  markdown(repository: Repository): Promise<string> {
    return this.#of(repository).markdown;
  }

  #of(repository: Repository) {
    let entry = this.#scans.get(repository.path);
    if (!entry) {
      const scan = scanRepository(repository.path);
      const markdown = scan.then(scanToMarkdown);
      // Started before anyone waits on them (the generation may still fail to start): a failed scan is
      // each layer's failure when it asks, never an unhandled rejection.
      scan.catch(() => undefined);
      markdown.catch(() => undefined);
      entry = { scan, markdown };
      this.#scans.set(repository.path, entry);
    }
    return entry;
  }
}
