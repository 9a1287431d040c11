import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '../../api/client.ts';
import { scrub } from '../../api/error-words.ts';
import type { ApiError } from '../../api/errors.ts';
import type {
  FollowedMergeRequest,
  FollowUpInput,
  MergeRequestCheck,
  MergeRequestComment,
  Task,
} from '../../api/types.ts';
import { Badge, ErrorNote } from '../../components/status.tsx';
import { useTaskAction } from './task-actions.ts';

type Item = NonNullable<FollowUpInput['merge_request']>[number];

const stateTones = { open: 'info', merged: 'ok', closed: 'muted' } as const;
const checksTones = { none: 'muted', pending: 'busy', passed: 'ok', failed: 'bad' } as const;
const checkTones: Record<MergeRequestCheck['status'], string> = {
  pending: 'idle',
  running: 'busy',
  passed: 'ok',
  failed: 'bad',
  skipped: 'muted',
  cancelled: 'muted',
};

/** One failed check or comment, as a key of the chosen set. */
const keyOf = (item: Item) => JSON.stringify(item);

/**
 * The submitted merge requests as the service last read them from GitHub or GitLab: state, checks and
 * comments, or why they could not be read. Refresh reads them now; failed checks and comments can be
 * chosen and posted as follow-up todos (the task goes back to 04 Coding, and its next submit updates the
 * same merge request).
 */
export function MergeRequestsPanel({ task }: { task: Task }) {
  const queryClient = useQueryClient();
  const ids = useId();
  const can = (action: string) => task.allowed_actions.includes(action);
  const followed = task.merge_requests ?? [];
  const refresh = useMutation<{ merge_requests: FollowedMergeRequest[] }, ApiError, void>({
    mutationFn: () => api.tasks.refreshMergeRequests(task.id),
    onSuccess: (answer) =>
      queryClient.setQueryData<Task>(['task', task.id], (current) =>
        current ? { ...current, merge_requests: answer.merge_requests } : current,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['task', task.id] }),
  });
  // "and run": the follow-up todos start at once (Run all), as the user asked for the work, not a list.
  const followUp = useTaskAction<{ items: Item[]; run: boolean }>(task, async ({ items, run }) => {
    const answer = await api.tasks.followUp(task.id, { merge_request: items });
    return run ? await api.tasks.runAll(task.id) : answer;
  });
  const [chosen, setChosen] = useState<ReadonlyMap<string, Item>>(() => new Map());
  // Only what the latest read of an open merge request lists can be posted.
  const offered = new Set(
    followed.flatMap((mr) =>
      mr.status?.state !== 'open'
        ? []
        : [
            ...(mr.status?.checks ?? [])
              .filter((check) => check.status === 'failed')
              .map((check) => keyOf({ repository: mr.repository, check: check.name })),
            ...(mr.status?.comments ?? []).map((comment) =>
              keyOf({ repository: mr.repository, comment_id: comment.id }),
            ),
          ],
    ),
  );
  const picked = [...chosen].filter(([key]) => offered.has(key)).map(([, item]) => item);
  const selectable = can('follow_up') ? offered.size > 0 : false;
  const toggle = (item: Item, on: boolean) =>
    setChosen((current) => {
      const next = new Map(current);
      if (on) next.set(keyOf(item), item);
      else next.delete(keyOf(item));
      return next;
    });
  const box = (item: Item, label: string) =>
    can('follow_up') && offered.has(keyOf(item)) ? (
      <input
        type="checkbox"
        aria-label={label}
        checked={chosen.has(keyOf(item))}
        onChange={(event) => toggle(item, event.target.checked)}
      />
    ) : null;
  return (
    <section className="merge-requests" aria-labelledby={`${ids}-title`}>
      <div className="page-head">
        <h3 id={`${ids}-title`}>{followed.length === 1 ? 'Merge request' : 'Merge requests'}</h3>
        <div className="spacer" />
        <button
          type="button"
          className="button-secondary"
          disabled={!can('refresh_merge_requests') || refresh.isPending}
          onClick={() => refresh.mutate()}
        >
          {refresh.isPending ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      <ErrorNote error={refresh.error} />
      {followed.map((mr) => (
        <MergeRequestCard key={mr.repository} mr={mr} box={box} />
      ))}
      {selectable ? (
        <div className="form-actions">
          <button
            type="button"
            className="button-primary"
            disabled={picked.length === 0 || followUp.isPending}
            onClick={() =>
              followUp.mutate({ items: picked, run: true }, { onSuccess: () => setChosen(new Map()) })
            }
          >
            Follow up and run ({picked.length})
          </button>
          <button
            type="button"
            className="button-secondary"
            disabled={picked.length === 0 || followUp.isPending}
            onClick={() =>
              followUp.mutate({ items: picked, run: false }, { onSuccess: () => setChosen(new Map()) })
            }
          >
            Follow up ({picked.length})
          </button>
          <span className="hint">
            The chosen checks and comments become todos ("and run" starts them at once); the next submit
            updates the same merge request.
          </span>
        </div>
      ) : null}
      <ErrorNote error={followUp.error} />
    </section>
  );
}

function MergeRequestCard({
  mr,
  box,
}: {
  mr: FollowedMergeRequest;
  box: (item: Item, label: string) => React.ReactNode;
}) {
  const status = mr.status;
  return (
    <article className="merge-request" aria-label={`Merge request of ${mr.repository}`}>
      <div className="merge-request-head">
        <strong>{mr.repository}</strong>
        <a href={mr.url} target="_blank" rel="noreferrer">
          {status ? `${mr.provider === 'gitlab' ? '!' : '#'}${status.number}` : 'merge request'} ↗
        </a>
        {status ? <Badge value={status.state} tone={stateTones[status.state]} /> : null}
        {status ? (
          <span className="hint">
            checks <Badge value={status.checks_state} tone={checksTones[status.checks_state]} />
          </span>
        ) : null}
        <div className="spacer" />
        <span className="hint" data-testid="checked-at">
          {mr.checked_at ? `checked at ${new Date(mr.checked_at).toLocaleString()}` : 'not read yet'}
          {mr.following ? ' · followed' : ''}
        </span>
      </div>
      {mr.error ? (
        <div className="error-note" role="alert">
          Could not read it: {scrub(mr.error)}
        </div>
      ) : null}
      {status && status.checks.length > 0 ? (
        <ul className="mr-items" aria-label={`Checks of ${mr.repository}`}>
          {status.checks.map((check) => (
            <CheckRow key={check.name} repository={mr.repository} check={check} box={box} />
          ))}
        </ul>
      ) : null}
      {status && status.comments.length > 0 ? (
        <ul className="mr-items" aria-label={`Comments on ${mr.repository}`}>
          {status.comments.map((comment) => (
            <CommentRow key={comment.id} repository={mr.repository} comment={comment} box={box} />
          ))}
        </ul>
      ) : null}
    </article>
  );
}

function CheckRow({
  repository,
  check,
  box,
}: {
  repository: string;
  check: MergeRequestCheck;
  box: (item: Item, label: string) => React.ReactNode;
}) {
  const failed = check.status === 'failed';
  return (
    <li className="mr-item" data-testid="mr-check">
      <span className="mr-box">
        {failed ? box({ repository, check: check.name }, `Follow up the check ${check.name}`) : null}
      </span>
      <Badge value={check.status} tone={checkTones[check.status]} />
      <div className="mr-item-text">
        <strong>{check.name}</strong>
        {check.summary ? <span className="hint"> {check.summary}</span> : null}
        {check.log ? (
          // What a follow-up of it gives the agent: the failing part of its log.
          <details className="check-log" data-testid="check-log">
            <summary>Log</summary>
            <pre className="check-output">{check.log}</pre>
          </details>
        ) : null}
      </div>
      {check.url ? (
        <a href={check.url} target="_blank" rel="noreferrer">
          details ↗
        </a>
      ) : null}
    </li>
  );
}

function CommentRow({
  repository,
  comment,
  box,
}: {
  repository: string;
  comment: MergeRequestComment;
  box: (item: Item, label: string) => React.ReactNode;
}) {
  const place = comment.path ? `${comment.path}${comment.line ? `:${comment.line}` : ''}` : null;
  return (
    <li className="mr-item" data-testid="mr-comment">
      <span className="mr-box">
        {box({ repository, comment_id: comment.id }, `Follow up ${comment.author}'s comment`)}
      </span>
      <Badge value="comment" tone="info" />
      <div className="mr-item-text">
        <div>
          <strong>{comment.author}</strong> {place ? <code>{place}</code> : null}{' '}
          <span className="hint">{new Date(comment.created_at).toLocaleString()}</span>
        </div>
        <div className="pre">{comment.body}</div>
      </div>
      {comment.url ? (
        <a href={comment.url} target="_blank" rel="noreferrer">
          open ↗
        </a>
      ) : null}
    </li>
  );
}
