import type { IncomingHttpHeaders } from 'node:http';

/**
 * A `node:http` answer's headers read as a fetch `Headers` reads them (`get` by any case, several values
 * joined with ", "), without the global `Headers`, whose first use loads undici (builtins.ts). What the
 * openai client's errors and Keel's retries read of an answer (`x-request-id`, `retry-after`, `date`).
 */
export class AnswerHeaders {
  readonly #fields = new Map<string, string>();

  constructor(headers: IncomingHttpHeaders) {
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined) this.#fields.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
  }

  get(name: string): string | null {
    return this.#fields.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#fields.has(name.toLowerCase());
  }

  entries(): IterableIterator<[string, string]> {
    return this.#fields.entries();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#fields.entries();
  }
}
