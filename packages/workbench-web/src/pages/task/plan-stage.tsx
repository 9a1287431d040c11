import { useState } from 'react';
import { api } from '../../api/client.ts';
import type { Session, Task } from '../../api/types.ts';
import { Markdown } from '../../components/lazy.tsx';
import { MessageBox } from '../../components/message-box.tsx';
import { SessionView } from '../../components/session-view.tsx';
import { Empty, ErrorNote } from '../../components/status.tsx';
import { useRefreshOnFinish, useTaskAction } from './task-actions.ts';

export function PlanStage({ task }: { task: Task }) {
  const can = (action: string) => task.allowed_actions.includes(action);
  const plan = useTaskAction<string | undefined>(task, (message) => api.tasks.plan(task.id, message));
  const lock = useTaskAction(task, () => api.tasks.lockPlan(task.id));
  const refresh = useRefreshOnFinish(task);
  // The plan session as its view last saw it: a turn that ended without a plan (stopped, failed) lets the
  // user draft again.
  const [session, setSession] = useState<Session | null>(null);
  const turnRunning =
    plan.isPending ||
    (task.plan_session_id !== null &&
      (session === null ||
        session.id !== task.plan_session_id ||
        session.status === 'running' ||
        session.status === 'queued'));
  const canDraft = task.plan === null && (!task.plan_session_id || !turnRunning);
  return (
    <section className="card stage" aria-labelledby="stage-title">
      <h2 id="stage-title">02 · Technical plan</h2>
      <div className="stage-split">
        <div>
          <div className="page-head">
            <h3>plan.md</h3>
            <div className="spacer" />
            {canDraft ? (
              <button
                type="button"
                className="button-primary"
                disabled={!can('plan') || plan.isPending}
                onClick={() => plan.mutate(undefined)}
              >
                Draft the plan
              </button>
            ) : null}
            <button
              type="button"
              className="button-primary"
              disabled={!can('lock_plan') || !task.plan || lock.isPending}
              onClick={() => lock.mutate()}
            >
              Lock plan →
            </button>
          </div>
          <ErrorNote error={lock.error} />
          {task.plan ? (
            <div className="doc">
              <Markdown>{task.plan}</Markdown>
            </div>
          ) : (
            <Empty>
              {turnRunning
                ? 'The plan is being written…'
                : task.plan_session_id
                  ? 'No plan yet: the last turn ended without one. Draft it again.'
                  : 'No plan yet: draft it.'}
            </Empty>
          )}
          <MessageBox
            label="Refine the plan"
            placeholder="e.g. Keep the old endpoint working; add a migration step."
            disabled={!can('plan') || !task.plan_session_id}
            pending={plan.isPending}
            error={plan.error}
            onSend={(message) => plan.mutate(message)}
          />
        </div>
        <div>
          {task.plan_session_id ? (
            <SessionView
              sessionId={task.plan_session_id}
              title="Plan conversation"
              onStatus={(next) => {
                setSession(next);
                refresh(next);
              }}
            />
          ) : (
            <Empty>The plan conversation starts when you draft the plan.</Empty>
          )}
        </div>
      </div>
    </section>
  );
}
