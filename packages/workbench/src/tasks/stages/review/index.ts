import type { StageModule } from '../stage.ts';
import {
  cleanCommitMessage,
  commitMessageAdjustPrompt,
  commitMessagePrompt,
  reviewPrompt,
} from './prompts.ts';
import { frameReviewChat, reviewTurnEnded } from './review-stage.ts';
import { reviewAutomatically } from './reviewer.ts';
import { reviewRoutes } from './routes.ts';

/**
 * 05 Review: a read-only reviewer's findings, the commit message in the task's review session, the merge
 * request, then the MR followed; follow-ups send the task back to coding on the same branch.
 */
export const reviewStage: StageModule = {
  key: 'review',
  title: 'Review',
  states: ['REVIEWING', 'DONE'],
  final: ['DONE'],
  moves: [
    {
      action: 'review',
      by: 'user',
      from: ['REVIEWING'],
      to: 'REVIEWING',
      trigger: 'POST /api/tasks/{id}/review (the reviewer again; by itself on entering review)',
    },
    {
      action: 'dismiss_finding',
      by: 'user',
      from: ['REVIEWING'],
      to: 'REVIEWING',
      trigger: 'POST /api/tasks/{id}/findings/{finding_id}/dismiss',
    },
    {
      action: 'commit_message',
      by: 'user',
      from: ['REVIEWING'],
      to: 'REVIEWING',
      trigger: 'POST /api/tasks/{id}/commit-message',
    },
    {
      action: 'submit_mr',
      by: 'user',
      from: ['REVIEWING'],
      to: 'REVIEWING',
      trigger: 'POST /api/tasks/{id}/submit-mr',
    },
    {
      action: 'submitted',
      by: 'system',
      from: ['REVIEWING'],
      to: 'DONE',
      trigger: 'every changed repository committed and pushed',
    },
    {
      action: 'refresh_merge_requests',
      by: 'user',
      from: ['CODING', 'REVIEWING', 'DONE'],
      to: 'same',
      trigger: 'POST /api/tasks/{id}/merge-requests/refresh (read now; followed by itself while open)',
    },
    {
      action: 'follow_up',
      by: 'user',
      from: ['REVIEWING', 'DONE'],
      to: 'CODING',
      trigger:
        'POST /api/tasks/{id}/follow-up: review findings, failed checks or MR comments become new todos on the same branch',
    },
  ],
  routes: reviewRoutes,
  // Review starts with the reviewer, then the commit message from the final diff, both by themselves.
  async onEnter(deps, task) {
    await reviewAutomatically(deps, task.id);
  },
  session: 'review',
  prompts: { reviewPrompt, commitMessagePrompt, commitMessageAdjustPrompt, cleanCommitMessage },
  turnEnded: { kind: 'review', handle: reviewTurnEnded },
  chatFramed: { kind: 'review', frame: frameReviewChat },
};
