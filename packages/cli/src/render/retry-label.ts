import type { RuntimeEvent } from '@keel/runtime';

/**
 * How a `retry` event reads on a terminal: counted in retries ("retry 1/3"), not in the attempts the event
 * carries (`attempt` 2 of `max_attempts` 4: the first attempt is not a retry).
 */
export function retryLabel(event: Extract<RuntimeEvent, { type: 'retry' }>): string {
  return `↻ retry ${event.attempt - 1}/${event.max_attempts - 1}: ${event.error}`;
}
