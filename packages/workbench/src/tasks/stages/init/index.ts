import type { StageModule } from '../stage.ts';
import { initRoutes } from './routes.ts';

/** 01 Initialization: clone, sync skills, copy knowledge (no AI, steps logged in its session); the user confirms. */
export const initStage: StageModule = {
  key: 'init',
  title: 'Initialization',
  states: ['CREATED', 'INITIALIZING'],
  moves: [
    {
      action: 'init',
      by: 'user',
      from: ['CREATED', 'INITIALIZING'],
      to: 'INITIALIZING',
      trigger: 'POST /api/tasks/{id}/init (again: retries the steps not done)',
    },
    {
      action: 'confirm_init',
      by: 'user',
      from: ['INITIALIZING'],
      to: 'next',
      trigger: 'POST /api/tasks/{id}/confirm-init, every init step done',
    },
    {
      action: 'setup',
      by: 'user',
      from: ['INITIALIZING', 'PLANNING', 'TODO_READY', 'CODING', 'REVIEWING'],
      to: 'same',
      trigger: "POST /api/tasks/{id}/setup (the repositories' setup steps again, once init is done)",
    },
  ],
  routes: initRoutes,
  session: 'task_init',
};
