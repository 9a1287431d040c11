/**
 * Collects a command's output within a bound: it keeps the first and the last half of `maxChars` and
 * counts what it drops from the middle, since a build's first error and its final summary both matter.
 */
export class OutputBuffer {
  readonly #half: number;
  #head = '';
  #tail = '';
  #total = 0;

  constructor(maxChars: number) {
    this.#half = Math.max(1, Math.floor(maxChars / 2));
  }

  append(text: string): void {
    this.#total += text.length;
    if (this.#head.length < this.#half) {
      const room = this.#half - this.#head.length;
      this.#head += text.slice(0, room);
      text = text.slice(room);
    }
    if (text === '') return;
    this.#tail += text;
    // Trimmed only when twice too long, so appending stays cheap.
    if (this.#tail.length > 2 * this.#half) this.#tail = this.#tail.slice(-this.#half);
  }

  /** Characters seen in all. */
  get totalChars(): number {
    return this.#total;
  }

  /** The output, with a marker saying how much was cut when it was too long. */
  toString(): string {
    const tail = this.#tail.slice(-this.#half);
    const cut = this.#total - this.#head.length - tail.length;
    if (cut <= 0) return this.#head + tail;
    return `${this.#head}\n[… ${cut} of ${this.#total} characters cut from the middle of the output …]\n${tail}`;
  }
}
