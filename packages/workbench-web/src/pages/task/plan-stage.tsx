import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api } from '../../api/client.ts';
import type { ApiError } from '../../api/errors.ts';
import type { PlanVersion, SentMessage, Session, Task } from '../../api/types.ts';
import { Markdown } from '../../components/lazy.tsx';
import { MessageBox } from '../../components/message-box.tsx';
import { SessionView } from '../../components/session-view.tsx';
import { Empty, ErrorNote, invalidBy } from '../../components/status.tsx';
import { PlanVersions } from './plan-versions.tsx';
import { storeTask, useRefreshOnFinish, useTaskAction } from './task-actions.ts';

export function PlanStage({ task }: { task: Task }) {
  const can = (action: string) => task.allowed_actions.includes(action);
  const plan = useTaskAction<{ message?: string }>(task, (body) => api.tasks.plan(task.id, body));
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
  // A refinement sent while a turn runs waits in the session's queue and becomes its next turn.
  const queueMessage = useMutation<SentMessage, ApiError, string>({
    mutationFn: (message) => api.sessions.send(task.plan_session_id ?? '', message),
  });
  const canDraft = task.plan === null && (!task.plan_session_id || !turnRunning);
  // plan.md by hand: a Markdown box in place of the rendered plan, saved as a new version.
  const queryClient = useQueryClient();
  const ids = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const savePlan = useMutation<{ task: Task; version: PlanVersion }, ApiError, string>({
    mutationFn: (content) => api.tasks.savePlan(task.id, content),
    onSuccess: (answer) => {
      storeTask(queryClient, answer.task);
      void queryClient.invalidateQueries({ queryKey: ['plan-versions', task.id] });
      setDraft(null);
    },
  });
  const canEdit = task.state === 'PLANNING' && !turnRunning;
  const editing = draft !== null;
  function save(event: FormEvent) {
    event.preventDefault();
    if (draft !== null) savePlan.mutate(draft);
  }
  return (
    <section className="card stage" aria-labelledby="stage-title">
      <h2 id="stage-title">02 · Technical plan</h2>
      <div className="stage-split">
        <div>
          <div className="page-head">
            <h3>plan.md</h3>
            <div className="spacer" />
            {!editing && canEdit ? (
              <button
                type="button"
                className="button-secondary"
                onClick={() => {
                  savePlan.reset();
                  setDraft(task.plan ?? '');
                }}
              >
                {task.plan ? 'Edit plan' : 'Write it by hand'}
              </button>
            ) : null}
            {canDraft && !editing ? (
              <button
                type="button"
                className="button-primary"
                disabled={!can('plan') || plan.isPending}
                onClick={() => plan.mutate({})}
              >
                Draft the plan
              </button>
            ) : null}
            <button
              data-shortcut="next"
              type="button"
              className="button-primary"
              disabled={!can('lock_plan') || !task.plan || lock.isPending}
              onClick={() => lock.mutate()}
            >
              Lock plan →
            </button>
          </div>
          <ErrorNote error={lock.error} />
          {editing ? (
            <form className="form plan-editor" aria-label="Edit plan.md" onSubmit={save}>
              <label className="field">
                <span>plan.md (Markdown)</span>
                <textarea
                  name="content"
                  rows={18}
                  value={draft}
                  onChange={(event) => setDraft(event.target.value)}
                  {...invalidBy(savePlan.error, `${ids}-plan-error`)}
                />
                <ErrorNote error={savePlan.error} id={`${ids}-plan-error`} />
              </label>
              <div className="form-actions">
                <button
                  type="submit"
                  className="button-primary"
                  disabled={savePlan.isPending || !draft.trim() || draft === task.plan}
                >
                  {savePlan.isPending ? 'Saving…' : 'Save plan'}
                </button>
                <button type="button" className="button-quiet" onClick={() => setDraft(null)}>
                  Cancel
                </button>
                <span className="hint">Saved as a new version; the next AI turn starts from it.</span>
              </div>
            </form>
          ) : task.plan ? (
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
          {editing ? null : (
            <MessageBox
              label="Refine the plan"
              placeholder="e.g. Keep the old endpoint working; add a migration step."
              disabled={!can('plan') || !task.plan_session_id}
              pending={plan.isPending}
              error={plan.error ?? queueMessage.error}
              onSend={(message) => {
                queueMessage.reset();
                if (turnRunning && task.plan_session_id) queueMessage.mutate(message);
                else plan.mutate({ message });
              }}
            />
          )}
          <PlanVersions task={task} />
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
