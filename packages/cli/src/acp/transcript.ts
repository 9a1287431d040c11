import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionUpdate } from '@agentclientprotocol/sdk';

// Session ids are the runtime's (`ses_` + base32): anything else never becomes a file name.
const sessionIdPattern = /^ses_[0-9a-z]{26}$/;

/**
 * What the editor was shown of each session, as the `session/update`s it received, one JSON line each in
 * `RUNTIME_HOME/acp/<session>.ndjson`: `session/load` replays them as they were (images, plans, tool calls
 * with their kind and diffs, the partial answer of a cancelled turn), and the last mode and model chosen
 * come back with them. The conversation the model continues from stays the runtime's session; this is
 * only the editor's view of it. Message chunks are joined in memory and written at the next other update
 * or at the end of the turn, so a streamed answer is one line, not one per token.
 */
export class Transcripts {
  readonly #dir: string;
  /** Per session: the chunk being joined (same kind, text only). */
  readonly #pending = new Map<string, TextChunk>();

  constructor(runtimeHome: string) {
    this.#dir = join(runtimeHome, 'acp');
  }

  append(sessionId: string, update: SessionUpdate): void {
    const pending = this.#pending.get(sessionId);
    if (pending && joinable(pending, update)) {
      pending.content.text += update.content.text;
      return;
    }
    this.flush(sessionId);
    if (isTextChunk(update)) this.#pending.set(sessionId, { ...update, content: { ...update.content } });
    else this.#write(sessionId, update);
  }

  /** Writes the chunk being joined: at a turn's end, cancelled or not. */
  flush(sessionId: string): void {
    const pending = this.#pending.get(sessionId);
    if (!pending) return;
    this.#pending.delete(sessionId);
    this.#write(sessionId, pending);
  }

  /** Everything shown, oldest first; undefined for a session no editor has seen through `keel acp`. */
  read(sessionId: string): SessionUpdate[] | undefined {
    const path = this.#pathOf(sessionId);
    if (!path || !existsSync(path)) return undefined;
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as SessionUpdate];
        } catch {
          // A line cut short by a crash: the rest is still worth showing.
          return [];
        }
      });
  }

  /** A fork starts with what its origin showed. */
  copy(from: string, to: string): void {
    this.flush(from);
    const source = this.#pathOf(from);
    const target = this.#pathOf(to);
    if (source && target && existsSync(source)) copyFileSync(source, target);
  }

  #write(sessionId: string, update: SessionUpdate): void {
    const path = this.#pathOf(sessionId);
    if (!path) return;
    mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
    appendFileSync(path, `${JSON.stringify(update)}\n`, { mode: 0o600 });
  }

  #pathOf(sessionId: string): string | undefined {
    return sessionIdPattern.test(sessionId) ? join(this.#dir, `${sessionId}.ndjson`) : undefined;
  }
}

type TextChunk = Extract<
  SessionUpdate,
  { sessionUpdate: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk' }
> & { content: { type: 'text'; text: string } };

function isTextChunk(update: SessionUpdate): update is TextChunk {
  return (
    (update.sessionUpdate === 'agent_message_chunk' || update.sessionUpdate === 'agent_thought_chunk') &&
    update.content.type === 'text'
  );
}

function joinable(pending: TextChunk, next: SessionUpdate): next is TextChunk {
  return isTextChunk(next) && pending.sessionUpdate === next.sessionUpdate;
}
