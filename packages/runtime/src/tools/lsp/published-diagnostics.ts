import { CancelledError } from '../../errors/index.ts';
import type { LspDiagnostic, PublishDiagnosticsParams } from './lsp-types.ts';

/** One `textDocument/publishDiagnostics` as received. */
export interface Publication {
  uri: string;
  version: number | undefined;
  diagnostics: LspDiagnostic[];
  /** Its place among every publication of this server: later ones have larger numbers. */
  seq: number;
  /** When it arrived (ms since the epoch). */
  at: number;
}

/** What a wait for a file's diagnostics is for. */
export interface DiagnosticsWait {
  uri: string;
  /** The version of the document last sent to the server. */
  version: number;
  /** `mark` right after that text reached the server: a publication without version must be later. */
  after: number;
  /** When that text was sent. */
  sentAt: number;
  timeoutMs: number;
  signal: AbortSignal;
  /** Rejects when the server exits: the wait ends with that error. */
  stopped: Promise<never>;
}

// A server that does not say which version its diagnostics are for (typescript-language-server) may
// publish a file's diagnostics in parts (syntax first, types a moment later). Its answer is taken once it
// has been quiet this long, or half as long as the first part took, whichever is longer, up to the max.
const minQuietMs = 300;
const maxQuietMs = 3_000;

/**
 * The diagnostics a server pushes, the latest per document, and waits for those of a given text: a
 * publication for that version or a later one when the server gives versions (pyright), else the first
 * publication after the text was sent, once the server has gone quiet about the file.
 */
export class PublishedDiagnostics {
  #seq = 0;
  readonly #latest = new Map<string, Publication>();
  readonly #listeners = new Set<() => void>();

  /** Records a publication and wakes the waits. */
  record(params: PublishDiagnosticsParams): void {
    this.#seq += 1;
    this.#latest.set(params.uri, {
      uri: params.uri,
      version: typeof params.version === 'number' ? params.version : undefined,
      diagnostics: Array.isArray(params.diagnostics) ? params.diagnostics : [],
      seq: this.#seq,
      at: Date.now(),
    });
    for (const listener of [...this.#listeners]) listener();
  }

  /** How many publications arrived so far: compare with a publication's `seq`. */
  get mark(): number {
    return this.#seq;
  }

  latest(uri: string): Publication | undefined {
    return this.#latest.get(uri);
  }

  /** The diagnostics of the wait's text, or undefined when none came within its timeout. */
  async forText(wait: DiagnosticsWait): Promise<Publication | undefined> {
    const deadline = Date.now() + wait.timeoutMs;
    let first: Publication | undefined;
    for (;;) {
      first = this.#latest.get(wait.uri);
      if (first !== undefined && isFor(first, wait)) break;
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await this.#nextOrTimeout(left, wait);
    }
    if (first.version !== undefined) return first;
    const quietMs = Math.min(maxQuietMs, Math.max(minQuietMs, (first.at - wait.sentAt) / 2));
    for (;;) {
      const last = this.#latest.get(wait.uri) ?? first;
      const left = Math.min(quietMs - (Date.now() - last.at), deadline - Date.now());
      if (left <= 0) return last;
      await this.#nextOrTimeout(left, wait);
    }
  }

  /** Resolves at the next publication or after `ms`; rejects when cancelled or the server stops. */
  #nextOrTimeout(ms: number, wait: DiagnosticsWait): Promise<void> {
    if (wait.signal.aborted)
      return Promise.reject(new CancelledError('The diagnostics request was cancelled.'));
    let cleanup = () => {};
    const next = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      const cancelled = () => reject(new CancelledError('The diagnostics request was cancelled.'));
      this.#listeners.add(resolve);
      wait.signal.addEventListener('abort', cancelled, { once: true });
      cleanup = () => {
        clearTimeout(timer);
        this.#listeners.delete(resolve);
        wait.signal.removeEventListener('abort', cancelled);
      };
    });
    return Promise.race([next, wait.stopped]).finally(cleanup);
  }
}

function isFor(publication: Publication, wait: DiagnosticsWait): boolean {
  // A version settles it either way; without one, only the order of arrival can.
  if (publication.version !== undefined) return publication.version >= wait.version;
  return publication.seq > wait.after;
}
