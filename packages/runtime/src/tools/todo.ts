import { z } from 'zod';
import { type Todo, TodoList, todoSchema } from './todo-list.ts';
import { defineTool } from './tool.ts';

export { type Todo, TodoList };

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
