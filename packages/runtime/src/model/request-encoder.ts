import { type ChatMessage, toWireMessage, type WireOptions } from './messages.ts';
import type { ModelTool } from './turn-types.ts';

/** Room kept before the messages for the body's opening (head and tools), grown when it does not fit. */
const minimumRoom = 32 * 1024;

/**
 * Builds chat-completions request bodies turn after turn without serialising the conversation again.
 * The protocol is stateless, so every request carries the whole history; re-encoding it each turn made
 * each step allocate a few copies of the conversation (wire objects, the JSON text, its UTF-8 bytes),
 * garbage that grew with the run (docs/performance.md, "keel run at length"). Here each message is
 * encoded once, by identity, into one off-heap buffer laid out as the body itself: room for the opening
 * (`{"model":…,"tools":[…],"messages":[`), the messages' JSON, then `]}`. A turn encodes only the
 * messages added since the last one and answers a view of that buffer: no copy at all.
 *
 * Messages are never changed in place (a prune or a compaction puts new objects in the list), so a
 * message seen at the same position is the same text; from the first one that differs, the rest is
 * encoded again. A body is lent until `settle()`: a turn that starts while the last body is still out
 * (its request failed and may still be writing it, or runs alongside) moves the messages to a new
 * buffer and leaves the old one to that request.
 */
export class RequestEncoder {
  /** The messages encoded so far, in order (references to the conversation's own objects). */
  #messages: ChatMessage[] = [];
  /** Offset just past each message's JSON in `#bytes`, its separating comma included. */
  #ends: number[] = [];
  #bytes = Buffer.allocUnsafeSlow(minimumRoom * 2);
  /** Where the messages start in `#bytes`: the room before is for the opening. */
  #room = minimumRoom;
  #tools: readonly ModelTool[] | undefined;
  /** The head's JSON the opening was made from, and the opening's bytes: the same each turn of a run. */
  #headJson: string | undefined;
  #opening = Buffer.alloc(0);
  /** The buffer whose body is out (its request not settled yet). */
  #lent: Buffer | undefined;
  readonly #wire: WireOptions;

  /** `wire`: how the endpoint wants messages written (messages.ts). */
  constructor(wire: WireOptions = {}) {
    this.#wire = wire;
  }

  /** The bytes of `{...head, tools, messages}` as JSON (no `tools` when there is none). */
  encode(
    head: Record<string, unknown>,
    messages: readonly ChatMessage[],
    tools: readonly ModelTool[],
  ): Buffer {
    // The opening carries the tools' definitions (tens of kB): encoded again only when they or the head change.
    const headJson = JSON.stringify(head);
    if (tools !== this.#tools || headJson !== this.#headJson) {
      this.#tools = tools;
      this.#headJson = headJson;
      const fields = headJson.slice(1, -1);
      const toolsField = tools.length ? `"tools":${JSON.stringify(tools)},` : '';
      this.#opening = Buffer.from(`{${fields}${fields ? ',' : ''}${toolsField}"messages":[`);
    }
    // The body lent last is still out: leave that buffer to its request and go on in a copy.
    if (this.#lent === this.#bytes) this.#relayout(this.#room, this.#bytes.byteLength);
    const openingBytes = this.#opening.byteLength;
    if (openingBytes > this.#room)
      this.#relayout(openingBytes * 2, this.#bytes.byteLength + openingBytes * 2);
    const end = this.#encodeMessages(messages);
    this.#reserve(end, 2);
    this.#bytes.write(']}', end);
    const start = this.#room - openingBytes;
    this.#opening.copy(this.#bytes, start);
    this.#lent = this.#bytes;
    return this.#bytes.subarray(start, end + 2);
  }

  /**
   * Ends the loan of `body`: `done` when its request was answered in full (so it was all read);
   * otherwise its writer may still hold it, and the buffer is left to it (the next turn copies).
   */
  settle(body: Buffer, done: boolean): void {
    if (!this.#lent || body.buffer !== this.#lent.buffer) return;
    if (done) this.#lent = undefined;
  }

  /** Bytes held for the conversation (for tests: about its JSON, never a copy per turn). */
  get retainedBytes(): number {
    return this.#bytes.byteLength;
  }

  /** Encodes what changed since the last call; answers the offset just past the messages' JSON. */
  #encodeMessages(messages: readonly ChatMessage[]): number {
    let same = 0;
    const known = Math.min(this.#messages.length, messages.length);
    while (same < known && this.#messages[same] === messages[same]) same++;
    this.#messages.length = same;
    this.#ends.length = same;
    let at = same ? this.#ends[same - 1]! : this.#room;
    for (let index = same; index < messages.length; index++) {
      const message = messages[index]!;
      const json = (index ? ',' : '') + JSON.stringify(toWireMessage(message, this.#wire));
      const length = Buffer.byteLength(json);
      this.#reserve(at, length);
      at += this.#bytes.write(json, at);
      this.#messages.push(message);
      this.#ends.push(at);
    }
    // A conversation that shrank a lot (a compaction) gives back the room its longer self needed.
    if (this.#bytes.byteLength > 4 * at && this.#bytes.byteLength > 4 * minimumRoom) {
      this.#relayout(this.#room, 2 * at);
    }
    return at;
  }

  /** Makes room for `length` more bytes at `at`, doubling the buffer. */
  #reserve(at: number, length: number): void {
    if (at + length <= this.#bytes.byteLength) return;
    this.#relayout(this.#room, Math.max(at + length, this.#bytes.byteLength * 2));
  }

  /** Moves the messages into a new buffer of `size` bytes with `room` before them. */
  #relayout(room: number, size: number): void {
    const end = this.#ends.at(-1) ?? this.#room;
    const moved = Buffer.allocUnsafeSlow(Math.max(size, room + end - this.#room + 2));
    this.#bytes.copy(moved, room, this.#room, end);
    const shift = room - this.#room;
    this.#ends = this.#ends.map((offset) => offset + shift);
    this.#bytes = moved;
    this.#room = room;
  }
}
