import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useCallback, useEffect, useId, useMemo, useState } from 'react';
import { api } from '../../api/client.ts';
import type { ApiError } from '../../api/errors.ts';
import type { CommitMessageEdit, Session, SubmitResult, Task, TaskDiff } from '../../api/types.ts';
import { type DiffNote, DiffNoteActions } from '../../components/diff-notes.ts';
import { useFieldErrors } from '../../components/field-errors.ts';
import { DiffViewer, preloadDiffViewer } from '../../components/lazy.tsx';
import { MessageBox } from '../../components/message-box.tsx';
import { SessionView } from '../../components/session-view.tsx';
import { Empty, ErrorNote, invalidBy, Loading } from '../../components/status.tsx';
import { MergeRequestsPanel } from './merge-requests-panel.tsx';
import { findingNotes, InlineFindingActions, ReviewFindings } from './review-findings.tsx';
import { storeTask, useRefreshOnFinish, useTaskAction } from './task-actions.ts';

export function ReviewStage({ task }: { task: Task }) {
  const can = (action: string) => task.allowed_actions.includes(action);
  const diff = useQuery<TaskDiff, ApiError>({
    // Read again on each move and each review round (a follow-up changed the code since the last one).
    queryKey: ['task-diff', task.id, task.state, task.review?.round ?? 0],
    queryFn: () => api.tasks.diff(task.id),
  });
  // The viewer's code loads alongside the diff, not after it.
  useEffect(preloadDiffViewer, []);
  const message = useTaskAction<{ message?: string }>(task, (body) => api.tasks.commitMessage(task.id, body));
  const submit = useTaskAction<{ title?: string }>(task, (input) => api.tasks.submitMr(task.id, input));
  const refresh = useRefreshOnFinish(task);
  // The review session as its view last saw it: a turn that ended without a message lets the user ask again.
  const [session, setSession] = useState<Session | null>(null);
  const writing =
    message.isPending ||
    (task.review_session_id !== null &&
      (session === null ||
        session.id !== task.review_session_id ||
        session.status === 'running' ||
        session.status === 'queued'));
  const [editing, setEditing] = useState(false);
  const canEdit = task.state === 'REVIEWING' && !writing && !submit.isPending;
  const [title, setTitle] = useState('');
  const ids = useId();
  const titleError = submit.error?.isAbout('title') ? submit.error : null;
  // The same list while the review is unchanged, so the diff's file rows stay memoised between polls.
  const review = task.review;
  const notes = useMemo(() => findingNotes(review), [review]);
  const noteActions = useCallback(
    (note: DiffNote) => <InlineFindingActions task={task} findingId={note.id} />,
    [task],
  );
  return (
    <section className="card stage" aria-labelledby="stage-title">
      <h2 id="stage-title">05 · Code review</h2>
      {task.merge_requests?.length ? <MergeRequestsPanel task={task} /> : null}
      {task.review || task.state === 'REVIEWING' ? <ReviewFindings task={task} /> : null}
      <div className="stage-split">
        <div>
          <div className="page-head">
            <h3>Commit message</h3>
            <div className="spacer" />
            {canEdit && !editing ? (
              <button type="button" className="button-secondary" onClick={() => setEditing(true)}>
                {task.commit_message ? 'Edit commit message' : 'Write it by hand'}
              </button>
            ) : null}
          </div>
          {editing && canEdit ? (
            <CommitMessageForm task={task} onDone={() => setEditing(false)} />
          ) : task.commit_message ? (
            <>
              <pre className="commit-message">{task.commit_message}</pre>
              {task.mr_title || task.mr_description ? (
                <dl className="mr-text" aria-label="Merge request text">
                  {task.mr_title ? (
                    <>
                      <dt>MR title</dt>
                      <dd>{task.mr_title}</dd>
                    </>
                  ) : null}
                  {task.mr_description ? (
                    <>
                      <dt>MR description</dt>
                      <dd className="pre">{task.mr_description}</dd>
                    </>
                  ) : null}
                </dl>
              ) : null}
            </>
          ) : (
            <Empty>
              {writing
                ? 'The commit message is being written…'
                : task.review?.status === 'running'
                  ? 'The commit message is written once the review has ended.'
                  : task.review_session_id
                    ? 'No commit message: the last attempt ended without one. Write it again.'
                    : 'No commit message yet.'}
            </Empty>
          )}
          {/* While the review runs the message is coming by itself: nothing to offer yet. */}
          {!task.commit_message && !writing && !editing && task.review?.status !== 'running' ? (
            <button
              type="button"
              className="button-secondary"
              disabled={!can('commit_message') || message.isPending}
              onClick={() => message.mutate({})}
            >
              Write the commit message
            </button>
          ) : null}
          <MessageBox
            label="Adjust the commit message"
            placeholder="e.g. Mention the migration in the body."
            disabled={!can('commit_message')}
            pending={message.isPending}
            error={message.error}
            onSend={(text) => message.mutate({ message: text })}
          />
          {task.state === 'DONE' ? null : (
            <form
              className="submit-mr"
              onSubmit={(event) => {
                event.preventDefault();
                submit.mutate(title.trim() ? { title: title.trim() } : {});
              }}
            >
              <label className="field">
                <span>
                  Merge request title (default: {task.mr_title ? 'the MR title above' : 'the commit subject'})
                </span>
                <input
                  name="title"
                  value={title}
                  onChange={(event) => setTitle(event.target.value)}
                  disabled={!can('submit_mr')}
                  {...invalidBy(titleError, `${ids}-title-error`)}
                />
                <ErrorNote error={titleError} id={`${ids}-title-error`} />
              </label>
              <button
                data-shortcut="next"
                type="submit"
                className="button-primary"
                disabled={!can('submit_mr') || !task.commit_message || submit.isPending}
              >
                {submit.isPending ? 'Pushing…' : 'Commit, push and open MR'}
              </button>
              <ErrorNote error={titleError ? null : submit.error} />
            </form>
          )}
          {task.results ? (
            <div className={task.state === 'DONE' ? 'submitted' : undefined}>
              <h3>{task.state === 'DONE' ? 'Submitted' : 'Submitted so far'}</h3>
              <ul className="results" aria-label="Merge requests">
                {task.results.map((result) => (
                  <li key={result.repository} className="result">
                    <strong>{result.repository}</strong>{' '}
                    {!result.changed ? (
                      <span className="hint">no changes</span>
                    ) : result.error ? (
                      <span className="error-text">
                        {result.error.code}: {result.error.message}
                      </span>
                    ) : (
                      <PushedResult result={result} />
                    )}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
        <div>
          {task.review_session_id ? (
            <SessionView
              sessionId={task.review_session_id}
              title="Commit message conversation"
              onStatus={(next) => {
                setSession(next);
                refresh(next);
              }}
            />
          ) : null}
        </div>
      </div>
      <h3>
        Changes across repositories{' '}
        {diff.data ? (
          <span className="hint">
            <span className="add">+{diff.data.additions}</span>{' '}
            <span className="del">−{diff.data.deletions}</span>
          </span>
        ) : null}
      </h3>
      {diff.isPending ? <Loading what="diff" /> : null}
      <ErrorNote error={diff.error} />
      {diff.data ? (
        <DiffNoteActions.Provider value={noteActions}>
          <DiffViewer diffs={diff.data.repositories} notes={notes} taskId={task.id} />
        </DiffNoteActions.Provider>
      ) : null}
    </section>
  );
}

/**
 * The commit message and the merge request's title and description, by hand. An empty title or
 * description goes back to the one taken from the commit message.
 */
function CommitMessageForm({ task, onDone }: { task: Task; onDone: () => void }) {
  const queryClient = useQueryClient();
  const ids = useId();
  const [message, setMessage] = useState(task.commit_message ?? '');
  const [mrTitle, setMrTitle] = useState(task.mr_title ?? '');
  const [mrDescription, setMrDescription] = useState(task.mr_description ?? '');
  const save = useMutation<Task, ApiError, CommitMessageEdit>({
    mutationFn: (edit) => api.tasks.editCommitMessage(task.id, edit),
    onSuccess: (next) => {
      storeTask(queryClient, next);
      onDone();
    },
  });
  const { about, onChange } = useFieldErrors(save.error);
  const general =
    save.error &&
    !['commit_message', 'mr_title', 'mr_description'].some((field) => save.error?.isAbout(field))
      ? save.error
      : null;
  function submit(event: FormEvent) {
    event.preventDefault();
    const edit: CommitMessageEdit = {
      mr_title: mrTitle.trim() || null,
      mr_description: mrDescription.trim() ? mrDescription : null,
    };
    if (message !== (task.commit_message ?? '')) edit.commit_message = message;
    save.mutate(edit);
  }
  return (
    <form
      className="form commit-edit"
      aria-label="Edit the commit message"
      onSubmit={submit}
      onChange={onChange}
    >
      <label className="field">
        <span>Commit message (subject line, blank line, body)</span>
        <textarea
          name="commit_message"
          rows={8}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          {...invalidBy(about('commit_message'), `${ids}-message-error`)}
        />
        <ErrorNote error={about('commit_message')} id={`${ids}-message-error`} />
      </label>
      <label className="field">
        <span>MR title (empty: the commit subject)</span>
        <input
          name="mr_title"
          value={mrTitle}
          onChange={(event) => setMrTitle(event.target.value)}
          {...invalidBy(about('mr_title'), `${ids}-mr-title-error`)}
        />
        <ErrorNote error={about('mr_title')} id={`${ids}-mr-title-error`} />
      </label>
      <label className="field">
        <span>MR description (empty: the commit body)</span>
        <textarea
          name="mr_description"
          rows={4}
          value={mrDescription}
          onChange={(event) => setMrDescription(event.target.value)}
          {...invalidBy(about('mr_description'), `${ids}-mr-description-error`)}
        />
        <ErrorNote error={about('mr_description')} id={`${ids}-mr-description-error`} />
      </label>
      <div className="form-actions">
        <button type="submit" className="button-primary" disabled={save.isPending || !message.trim()}>
          {save.isPending ? 'Saving…' : 'Save commit message'}
        </button>
        <button type="button" className="button-quiet" onClick={onDone}>
          Cancel
        </button>
        <ErrorNote error={general} />
      </div>
    </form>
  );
}

/**
 * A pushed repository: its branch, the merge request's link (or the compare link), and when there is no
 * merge request the service's note saying why and what to do, e.g. a remote with no forge Keel knows.
 */
function PushedResult({ result }: { result: SubmitResult }) {
  const mrUrl = result.merge_request?.url ?? result.mr_url ?? null;
  const note = mrUrl ? undefined : result.merge_request?.note;
  return (
    <>
      <code>{result.branch}</code>{' '}
      {mrUrl ? (
        <a href={mrUrl} target="_blank" rel="noreferrer">
          merge request ↗
        </a>
      ) : result.compare_url ? (
        <a href={result.compare_url} target="_blank" rel="noreferrer">
          compare ↗
        </a>
      ) : note ? null : (
        <span className="hint">pushed</span>
      )}
      {note ? (
        <p className="hint result-note" data-testid="mr-note">
          {note}
        </p>
      ) : null}
    </>
  );
}
