import { z } from 'zod';
import { defineTool } from './tool.ts';

const todoSchema = z.strictObject({
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

// Without a run's list (a single POST /tool call) there is nothing to keep the list in beyond the call.
const throwaway = () => new TodoList();

export const todoWriteTool = defineTool({
  name: 'todo_write',
  traits: { kind: 'think', readOnly: true },
  description:
    'Write the task list for this run, replacing the previous one: plan multi-step work, mark one task ' +
    'in_progress while you work on it, and completed as soon as it is done. Skip it for simple tasks.',
  schema: z.strictObject({
    todos: z
      .array(todoSchema)
      .max(50)
      .refine((todos) => todos.filter((todo) => todo.status === 'in_progress').length <= 1, {
        message: 'at most one task can be in_progress at a time',
      })
      .describe('The whole list, in order; it replaces the previous one.'),
  }),
  async execute(ctx, args) {
    const list = ctx.todos ?? throwaway();
    list.replace(args.todos);
    return list.render();
  },
});

export const todoReadTool = defineTool({
  name: 'todo_read',
  traits: { kind: 'think', readOnly: true },
  description: "Read this run's task list.",
  schema: z.strictObject({}),
  async execute(ctx) {
    return (ctx.todos ?? throwaway()).render();
  },
});
