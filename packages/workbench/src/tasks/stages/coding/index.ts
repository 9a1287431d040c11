import type { StageModule } from '../stage.ts';
import { takeBaseline } from './baseline.ts';
import { codingPrompt } from './prompts.ts';
import { codingRoutes } from './routes.ts';

/** 04 Coding: each todo in its own session (kept on the todo), strictly in order, with the checks after it. */
export const codingStage: StageModule = {
  key: 'coding',
  title: 'Coding',
  states: ['CODING'],
  moves: [
    {
      action: 'start_coding',
      by: 'user',
      from: ['TODO_READY'],
      to: 'CODING',
      trigger: 'POST /api/tasks/{id}/start-coding, at least one todo',
    },
    {
      action: 'execute_todo',
      by: 'user',
      from: ['CODING'],
      to: 'CODING',
      trigger: 'POST /api/todos/{id}/execute',
    },
    { action: 'skip_todo', by: 'user', from: ['CODING'], to: 'CODING', trigger: 'POST /api/todos/{id}/skip' },
    {
      action: 'run_all',
      by: 'user',
      from: ['CODING'],
      to: 'CODING',
      trigger: 'POST /api/tasks/{id}/run-all',
    },
    {
      action: 'baseline',
      by: 'user',
      from: ['CODING'],
      to: 'CODING',
      trigger: 'POST /api/tasks/{id}/baseline (taken by itself before the first todo)',
    },
    {
      action: 'finish_coding',
      by: 'system',
      from: ['CODING'],
      to: 'next',
      trigger: 'the last todo is done or skipped',
    },
  ],
  routes: codingRoutes,
  // The setup ran again (the environment may be fixed): the checks' baseline again, at once.
  async onSetup(deps, task) {
    await takeBaseline(deps, task.id);
  },
  prompts: { codingPrompt },
};
