// A stage registered from outside the workbench's stages folder: "Security review", between coding and
// review in the test beside this folder. Nothing of the workbench names it; the flow numbers it, leads
// coding's hand-off into it and its own hand-off on into review (README: "Adding a stage").
import type { StageModule } from '../../../../src/tasks/index.ts';
import { securityRoutes } from './routes.ts';
import { scanEnded, scanOnEntry, securityPrompt } from './security-stage.ts';

export const securityReviewStage: StageModule = {
  key: 'security',
  title: 'Security review',
  states: ['SECURITY_REVIEW'],
  moves: [
    {
      action: 'security_scan',
      by: 'user',
      from: ['SECURITY_REVIEW'],
      to: 'same',
      trigger: 'POST /api/tasks/{id}/security-scan (by itself on entering the stage)',
    },
    {
      action: 'security_passed',
      by: 'system',
      from: ['SECURITY_REVIEW'],
      to: 'next',
      trigger: 'the scan found no security problem',
    },
    {
      action: 'accept_security',
      by: 'user',
      from: ['SECURITY_REVIEW'],
      to: 'next',
      trigger: 'POST /api/tasks/{id}/security-accept (go on despite what the scan found)',
    },
  ],
  routes: securityRoutes,
  // Read-only, as the reviewer's: it looks at the change, it does not change it.
  session: 'reviewer',
  prompts: { securityPrompt },
  onEnter: scanOnEntry,
  turnEnded: { kind: 'reviewer', handle: scanEnded },
};
