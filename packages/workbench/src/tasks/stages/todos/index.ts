import type { StageModule } from '../stage.ts';
import { todoAdjustPrompt, todoPrompt } from './prompts.ts';
import { todosRoutes } from './routes.ts';
import { todosEntered, todosTurnEnded } from './todos-stage.ts';

/** 03 Todos: the locked plan broken into todos in the plan session (02's: one conversation). */
export const todosStage: StageModule = {
  key: 'todos',
  title: 'Todos',
  states: ['PLAN_LOCKED', 'TODO_READY'],
  moves: [
    {
      action: 'todo',
      by: 'user',
      from: ['PLAN_LOCKED', 'TODO_READY'],
      to: 'PLAN_LOCKED',
      trigger: 'POST /api/tasks/{id}/todo (regenerate, or adjust by message)',
    },
    {
      action: 'todos_ready',
      by: 'system',
      from: ['PLAN_LOCKED'],
      to: 'TODO_READY',
      trigger: 'the todo list was parsed and saved to todo.json',
    },
  ],
  routes: todosRoutes,
  prompts: { todoPrompt, todoAdjustPrompt },
  onEnter: todosEntered,
  turnEnded: { kind: 'plan', handle: todosTurnEnded },
};
