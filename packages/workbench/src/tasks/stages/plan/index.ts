import type { StageModule } from '../stage.ts';
import { framePlanChat, planTurnEnded } from './plan-stage.ts';
import { planPrompt, planRefinePrompt } from './prompts.ts';
import { planRoutes } from './routes.ts';

/** 02 Plan: plan.md drafted and refined in the task's plan session (shared with 03), then locked. */
export const planStage: StageModule = {
  number: '02',
  key: 'plan',
  title: 'Plan',
  states: ['PLANNING'],
  moves: [
    {
      action: 'plan',
      by: 'user',
      from: ['PLANNING'],
      to: 'PLANNING',
      trigger: 'POST /api/tasks/{id}/plan (first draft or a refinement)',
    },
    {
      action: 'lock_plan',
      by: 'user',
      from: ['PLANNING'],
      to: 'PLAN_LOCKED',
      trigger: 'POST /api/tasks/{id}/lock-plan, plan.md exists',
    },
  ],
  routes: planRoutes,
  session: 'plan',
  prompts: { planPrompt, planRefinePrompt },
  turnEnded: { kind: 'plan', handle: planTurnEnded },
  chatFramed: { kind: 'plan', frame: framePlanChat },
};
