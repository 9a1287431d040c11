import type { EventOf, EventType, RuntimeEvent } from './definitions.ts';

type Handler<E> = (event: E) => void | Promise<void>;

/**
 * Dispatches events by type to synchronous or asynchronous handlers, in registration order.
 * A failing handler is reported to `onHandlerError` and never breaks the run.
 *
 * @example
 * runtime.events.on('tool_call', (e) => console.log(e.tool_name, e.args));
 */
export class EventManager {
  readonly #handlers = new Map<EventType | '*', Set<Handler<RuntimeEvent>>>();
  readonly #onHandlerError: (error: unknown, event: RuntimeEvent) => void;

  constructor(options: { onHandlerError?: (error: unknown, event: RuntimeEvent) => void } = {}) {
    this.#onHandlerError =
      options.onHandlerError ??
      ((error) => process.emitWarning(`Keel event handler failed: ${String(error)}`));
  }

  /** Registers a handler for one event type, or `'*'` for all; returns a function that removes it. */
  on<K extends EventType>(type: K, handler: Handler<EventOf<K>>): () => void;
  on(type: '*', handler: Handler<RuntimeEvent>): () => void;
  on(type: EventType | '*', handler: Handler<never>): () => void {
    const set = this.#handlers.get(type) ?? new Set();
    set.add(handler as Handler<RuntimeEvent>);
    this.#handlers.set(type, set);
    return () => set.delete(handler as Handler<RuntimeEvent>);
  }

  /** Calls every handler of the event's type, then the `'*'` handlers, awaiting async ones. */
  async emit(event: RuntimeEvent): Promise<void> {
    for (const key of [event.type, '*'] as const) {
      const set = this.#handlers.get(key);
      if (!set) continue;
      for (const handler of set) {
        try {
          await handler(event);
        } catch (error) {
          this.#onHandlerError(error, event);
        }
      }
    }
  }
}
