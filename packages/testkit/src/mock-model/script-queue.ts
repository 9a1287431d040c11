import type { LastMessage } from './last-message.ts';
import { replyMatches } from './last-message.ts';
import type { ScriptedReply } from './types.ts';

/**
 * The replies not yet consumed; a request takes the first one whose matcher accepts it. A `repeat` reply
 * is served but stays where it is.
 */
export class ScriptQueue {
  #replies: ScriptedReply[] = [];

  constructor(replies: ScriptedReply[] = []) {
    this.#replies.push(...replies);
  }

  get remaining(): number {
    return this.#replies.length;
  }

  push(replies: ScriptedReply[]): void {
    this.#replies.push(...replies);
  }

  /** Return the first matching reply (removed unless it repeats), or undefined when none matches. */
  take(last: LastMessage): ScriptedReply | undefined {
    const index = this.#replies.findIndex((reply) => replyMatches(reply, last));
    if (index === -1) return undefined;
    const reply = this.#replies[index]!;
    if (!reply.repeat) this.#replies.splice(index, 1);
    return reply;
  }
}
