import { z } from 'zod';

export const todoSchema = z.strictObject({
  content: z.string().min(1).max(500).describe('What to do, as an imperative: "Add the migration".'),
  status: z
    .enum(['pending', 'in_progress', 'completed'])
    .describe('pending, in_progress (one at a time) or completed.'),
});
export type Todo = z.infer<typeof todoSchema>;

/** A run's task list: what the agent plans to do and how far it got (held for the run's execution). */
export class TodoList {
  #items: Todo[] = [];

  get items(): readonly Todo[] {
    return this.#items;
  }

  replace(items: Todo[]): void {
    this.#items = items.map((item) => ({ ...item }));
  }

  /** The list as the model and the user read it. */
  render(): string {
    if (this.#items.length === 0) return 'The task list is empty.';
    const marks = { pending: '[ ]', in_progress: '[~]', completed: '[x]' } as const;
    const done = this.#items.filter((item) => item.status === 'completed').length;
    return [
      `Tasks (${done}/${this.#items.length} done):`,
      ...this.#items.map((item) => `${marks[item.status]} ${item.content}`),
    ].join('\n');
  }
}
