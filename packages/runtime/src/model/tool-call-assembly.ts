import { randomBytes } from 'node:crypto';
import type { ToolCall } from './messages.ts';
import { argumentsText, repairArguments } from './tool-arguments.ts';

/** One streamed tool-call part as servers send it: OpenAI's shape, with what others leave out or change. */
export interface ToolCallPart {
  /** OpenAI numbers each call; Ollama used to leave it out or number every call 0. */
  index?: number | undefined;
  /** Empty (llama.cpp, LM Studio) or the same for every call (DeepSeek, GLM) on some servers. */
  id?: string | undefined;
  /** `arguments` may be an object (Ollama's own API writes them so). */
  function?: { name?: string | undefined; arguments?: unknown } | undefined;
}

/**
 * Assembles streamed tool calls, whatever the server's way: OpenAI's header then argument fragments by
 * `index`, or each call whole in one chunk with no `index` or every one at index 0 (a second name at an
 * index already named starts a new call when its id differs or the earlier call's arguments are complete).
 */
export class ToolCallAssembly {
  readonly #calls: Array<{ id: string; name: string; arguments: string }> = [];
  /** Position in `#calls` of each wire index's latest call. */
  readonly #byIndex = new Map<number, number>();

  add(part: ToolCallPart): void {
    const call = this.#callFor(part);
    if (part.id && !call.id) call.id = part.id;
    if (part.function?.name && !call.name) call.name = part.function.name;
    const args = part.function?.arguments;
    // An object is the whole of the arguments; a string is the next fragment.
    if (typeof args === 'object' && args !== null) call.arguments = argumentsText(args) ?? '';
    else if (typeof args === 'string') call.arguments += args;
  }

  /** The calls in order, each with an id of its own and its arguments repaired where that is safe. */
  calls(truncated: boolean): ToolCall[] {
    const used = new Set<string>();
    return this.#calls
      .filter((call) => call.name !== '')
      .map((call) => {
        // A missing or repeated id gets a fresh one: results are matched to calls by id.
        const id = call.id && !used.has(call.id) ? call.id : newCallId();
        used.add(id);
        return { id, name: call.name, arguments: repairArguments(call.arguments, truncated) };
      });
  }

  #callFor(part: ToolCallPart) {
    // Without an index, a part belongs with index 0's latest call, or starts the next one.
    const index = typeof part.index === 'number' ? part.index : 0;
    const at = this.#byIndex.get(index);
    const known = at === undefined ? undefined : this.#calls[at];
    if (known && !(part.function?.name && known.name && startsAnother(known, part))) return known;
    this.#byIndex.set(index, this.#calls.length);
    return this.#push();
  }

  #push() {
    const call = { id: '', name: '', arguments: '' };
    this.#calls.push(call);
    return call;
  }
}

/** Whether a named part is a new call rather than its call's name repeated. */
function startsAnother(call: { id: string; arguments: string }, part: ToolCallPart): boolean {
  if (part.id && call.id && part.id !== call.id) return true;
  if (call.arguments.trim() === '') return false;
  try {
    JSON.parse(call.arguments);
    return true;
  } catch {
    return false;
  }
}

/** A call id of nine letters and digits: the form the strictest chat templates (Mistral's) accept. */
function newCallId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return [...randomBytes(9)].map((byte) => alphabet[byte % alphabet.length]).join('');
}
