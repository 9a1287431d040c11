import type { StageModule } from '../stage.ts';
import { framePlanChat, planEntered, planTurnEnded } from './plan-stage.ts';
import { planPrompt, planRefinePrompt } from './prompts.ts';
import { planRoutes } from './routes.ts';

/** 02 Plan: plan.md drafted (by itself on entry) and refined in the task's plan session (shared with 03), then locked. */
export const planStage: StageModule = {
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
      to: 'next',
      trigger: 'POST /api/tasks/{id}/lock-plan, plan.md exists',
    },
  ],
  routes: planRoutes,
  session: 'plan',
  prompts: { planPrompt, planRefinePrompt },
  onEnter: planEntered,
  turnEnded: { kind: 'plan', handle: planTurnEnded },
  chatFramed: { kind: 'plan', frame: framePlanChat },
};
