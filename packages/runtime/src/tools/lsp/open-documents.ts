import { readFile, stat } from 'node:fs/promises';
import { isBinary } from '../files/text-file.ts';

/** Larger files are not sent to a server (read_file refuses twice this): servers bog down on them. */
export const maxDocumentBytes = 5 * 1024 * 1024;

/** A file as the tools hand it to the server: its real path, `file:` URI, LSP languageId and text. */
export interface DocumentText {
  path: string;
  uri: string;
  languageId: string;
  text: string;
}

interface OpenDocument extends DocumentText {
  version: number;
  usedAt: number;
}

/** What one sync sent. */
export interface SyncResult {
  /** Something was sent: a document opened, changed or closed. */
  any: boolean;
  /** The queried document itself was opened or changed. */
  target: boolean;
  /** The queried document was opened (it was not open in the server). */
  opened: boolean;
}

/** More open documents than this and the least recently queried is closed (the server keeps less state). */
const maxOpenDocuments = 64;

/**
 * The documents open in one server, with the version and text last sent. The server's copy is brought up
 * to date from the disk before every query, so edits made by any tool (write_file, edit_file, patch,
 * exec_command) or by hand are seen: a changed file gets `didChange` with the next version, a deleted one
 * `didClose`.
 */
export class OpenDocuments {
  readonly #send: (method: string, params: unknown) => void;
  readonly #documents = new Map<string, OpenDocument>();
  /** Versions only grow per URI, even across a close and reopen. */
  readonly #versions = new Map<string, number>();

  constructor(send: (method: string, params: unknown) => void) {
    this.#send = send;
  }

  /** The version last sent for `uri`, if it is open. */
  version(uri: string): number | undefined {
    return this.#documents.get(uri)?.version;
  }

  /** The text last sent for `uri`, if it is open. */
  text(uri: string): string | undefined {
    return this.#documents.get(uri)?.text;
  }

  /** Sends `target` (as read just now) and the disk's content of every other open document, where changed. */
  async sync(target: DocumentText): Promise<SyncResult> {
    let any = false;
    for (const document of [...this.#documents.values()]) {
      if (document.uri === target.uri) continue;
      const text = await readText(document.path);
      if (text === undefined) {
        this.#close(document.uri);
        any = true;
      } else if (text !== document.text) {
        this.#change(document, text);
        any = true;
      }
    }
    const open = this.#documents.get(target.uri);
    let changed = false;
    const opened = open === undefined;
    if (open === undefined) {
      this.#open(target);
      changed = true;
    } else if (open.text !== target.text) {
      this.#change(open, target.text);
      changed = true;
    }
    const current = this.#documents.get(target.uri);
    if (current) current.usedAt = Date.now();
    if (changed) this.#closeBeyondLimit(target.uri);
    return { any: any || changed, target: changed, opened };
  }

  /**
   * Sends the document again unchanged under a new version: a server then publishes its diagnostics
   * anew, for text it already had but whose diagnostics may have changed with another file.
   */
  touch(uri: string): void {
    const document = this.#documents.get(uri);
    if (document !== undefined) this.#change(document, document.text);
  }

  #open(document: DocumentText): void {
    const version = (this.#versions.get(document.uri) ?? 0) + 1;
    this.#versions.set(document.uri, version);
    this.#documents.set(document.uri, { ...document, version, usedAt: Date.now() });
    this.#send('textDocument/didOpen', {
      textDocument: { uri: document.uri, languageId: document.languageId, version, text: document.text },
    });
  }

  #change(document: OpenDocument, text: string): void {
    document.version += 1;
    document.text = text;
    this.#versions.set(document.uri, document.version);
    // Whole-text changes: the servers accept them (textDocumentSync full or incremental) and they cannot drift.
    this.#send('textDocument/didChange', {
      textDocument: { uri: document.uri, version: document.version },
      contentChanges: [{ text }],
    });
  }

  #close(uri: string): void {
    this.#documents.delete(uri);
    this.#send('textDocument/didClose', { textDocument: { uri } });
  }

  #closeBeyondLimit(keep: string): void {
    const byAge = [...this.#documents.values()].sort((a, b) => a.usedAt - b.usedAt);
    for (const document of byAge) {
      if (this.#documents.size <= maxOpenDocuments) return;
      if (document.uri !== keep) this.#close(document.uri);
    }
  }
}

/** A text file's content, or undefined when it is gone, unreadable, binary or too large to send. */
async function readText(path: string): Promise<string | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size > maxDocumentBytes) return undefined;
    const content = await readFile(path);
    return isBinary(content) ? undefined : content.toString('utf8');
  } catch {
    return undefined;
  }
}
