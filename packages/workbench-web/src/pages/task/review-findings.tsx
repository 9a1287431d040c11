import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '../../api/client.ts';
import { scrub } from '../../api/error-words.ts';
import type { ApiError } from '../../api/errors.ts';
import type { ReviewFinding, Task } from '../../api/types.ts';
import type { DiffNote } from '../../components/diff-notes.ts';
import { SessionView } from '../../components/session-view.tsx';
import { Badge, ErrorNote } from '../../components/status.tsx';
import { useTaskAction } from './task-actions.ts';

export const severityTones: Record<ReviewFinding['severity'], string> = {
  error: 'bad',
  warning: 'warn',
  info: 'info',
};

const statusWords: Record<ReviewFinding['status'], { label: string; tone: string }> = {
  open: { label: 'open', tone: 'idle' },
  dismissed: { label: 'dismissed', tone: 'muted' },
  follow_up: { label: 'follow-up todo', tone: 'busy' },
};

/** Where a finding is: `repository/file:line`, as much of it as the reviewer named. */
export function findingPlace(finding: ReviewFinding): string {
  const where = [finding.repository, finding.file].filter(Boolean).join('/');
  return where && finding.line !== null && finding.file ? `${where}:${finding.line}` : where;
}

/** The findings the diff shows under their lines: those on a file, not dismissed. */
export function findingNotes(review: Task['review']): DiffNote[] {
  return (review?.findings ?? []).flatMap((finding) =>
    finding.file && finding.status !== 'dismissed'
      ? [
          {
            id: finding.id,
            repository: finding.repository,
            file: finding.file,
            line: finding.line,
            severity: finding.severity,
            message: finding.message,
          },
        ]
      : [],
  );
}

/**
 * Stage 05's reviewer: how its review went (running, failed with why, or done with what it found), its
 * findings with their severity and place, Dismiss for an open one, and the chosen open ones posted as
 * follow-up todos (the task goes back to 04 Coding).
 */
export function ReviewFindings({ task }: { task: Task }) {
  const queryClient = useQueryClient();
  const ids = useId();
  const can = (action: string) => task.allowed_actions.includes(action);
  const review = task.review ?? null;
  const again = useTaskAction(task, () => api.tasks.review(task.id));
  const dismiss = useMutation<ReviewFinding, ApiError, string>({
    mutationFn: (findingId) => api.tasks.dismissFinding(task.id, findingId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['task', task.id] }),
  });
  // "and run": the follow-up todos start at once (Run all), as the user asked for the work, not a list.
  const followUp = useTaskAction<{ findings: string[]; run: boolean }>(task, async ({ findings, run }) => {
    const answer = await api.tasks.followUp(task.id, { findings });
    return run ? await api.tasks.runAll(task.id) : answer;
  });
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set());
  // The reviewer's session is read only once its conversation is opened.
  const [reading, setReading] = useState(false);
  const findings = review?.findings ?? [];
  const open = findings.filter((finding) => finding.status === 'open');
  // Dismissed ones stay listed across rounds (the reviewer is told them): they are not new work.
  const dismissed = findings.filter((finding) => finding.status === 'dismissed').length;
  const picked = open.filter((finding) => chosen.has(finding.id)).map((finding) => finding.id);
  const running = review?.status === 'running' || again.isPending;
  const canFollow = can('follow_up');
  const toggle = (findingId: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(findingId);
      else next.delete(findingId);
      return next;
    });
  return (
    <section className="review-findings" aria-labelledby={`${ids}-title`}>
      <div className="page-head">
        <h3 id={`${ids}-title`}>Review</h3>
        {review ? (
          <Badge
            value={review.status === 'done' ? `round ${review.round}` : review.status}
            tone={review.status === 'done' ? 'ok' : undefined}
          />
        ) : null}
        <div className="spacer" />
        {can('review') && !running ? (
          <button type="button" className="button-secondary" onClick={() => again.mutate()}>
            {review ? 'Run the review again' : 'Run the review'}
          </button>
        ) : null}
      </div>
      {running ? (
        <div className="loading" role="status" data-testid="review-status">
          <span className="spinner" aria-hidden="true" />
          The reviewer is reading the change{review ? ` (round ${review.round})` : ''}…
        </div>
      ) : review?.status === 'failed' ? (
        <div className="error-note" role="alert" data-testid="review-status">
          The review failed: {scrub(review.error ?? 'no reason was given.')}
        </div>
      ) : review?.status === 'done' ? (
        <p className="hint" data-testid="review-status">
          {findings.length === dismissed
            ? `The reviewer found nothing to change${dismissed > 0 ? `; ${dismissed} dismissed ${dismissed === 1 ? 'finding stays' : 'findings stay'} listed below.` : '.'}`
            : `The reviewer found ${findings.length} ${findings.length === 1 ? 'thing' : 'things'}; ${open.length} open.`}
        </p>
      ) : (
        <p className="hint" data-testid="review-status">
          No review yet.
        </p>
      )}
      {findings.length > 0 ? (
        <ul className="findings" aria-label="Review findings">
          {findings.map((finding) => {
            const place = findingPlace(finding);
            const status = statusWords[finding.status];
            const isOpen = finding.status === 'open';
            return (
              <li key={finding.id} className={`finding finding-${finding.status}`} data-testid="finding">
                {isOpen && canFollow ? (
                  <input
                    type="checkbox"
                    aria-label={`Follow up: ${finding.message}`}
                    checked={chosen.has(finding.id)}
                    onChange={(event) => toggle(finding.id, event.target.checked)}
                  />
                ) : (
                  <span className="finding-box" aria-hidden="true" />
                )}
                <Badge value={finding.severity} tone={severityTones[finding.severity]} />
                <div className="finding-text">
                  {place ? <code className="finding-place">{place}</code> : null}
                  <span className="finding-message">{finding.message}</span>
                </div>
                <Badge value={status.label} tone={status.tone} />
                {isOpen && can('dismiss_finding') ? (
                  <button
                    type="button"
                    className="button-quiet"
                    aria-label={`Dismiss: ${finding.message}`}
                    disabled={dismiss.isPending}
                    onClick={() => {
                      toggle(finding.id, false);
                      dismiss.mutate(finding.id);
                    }}
                  >
                    Dismiss
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
      {open.length > 0 && canFollow ? (
        <div className="form-actions">
          <button
            type="button"
            className="button-primary"
            disabled={picked.length === 0 || followUp.isPending}
            onClick={() =>
              followUp.mutate({ findings: picked, run: true }, { onSuccess: () => setChosen(new Set()) })
            }
          >
            Follow up and run ({picked.length})
          </button>
          <button
            type="button"
            className="button-secondary"
            disabled={picked.length === 0 || followUp.isPending}
            onClick={() =>
              followUp.mutate({ findings: picked, run: false }, { onSuccess: () => setChosen(new Set()) })
            }
          >
            Follow up ({picked.length})
          </button>
          <span className="hint">
            The chosen findings become todos and the task goes back to 04 Coding; "and run" starts them at
            once.
          </span>
        </div>
      ) : null}
      <ErrorNote error={again.error ?? dismiss.error ?? followUp.error} />
      {review?.session_id ? (
        <details className="reviewer-session" onToggle={(event) => setReading(event.currentTarget.open)}>
          <summary>Reviewer conversation</summary>
          {reading ? (
            <SessionView key={review.session_id} sessionId={review.session_id} title="Reviewer" />
          ) : null}
        </details>
      ) : null}
    </section>
  );
}

/**
 * A finding's actions where the diff shows it: Dismiss, and Follow up (a todo from it; the task goes back to
 * 04 Coding), as in the findings list, for an open finding while the task allows them.
 */
export function InlineFindingActions({ task, findingId }: { task: Task; findingId: string }) {
  const queryClient = useQueryClient();
  const can = (action: string) => task.allowed_actions.includes(action);
  const finding = task.review?.findings.find((each) => each.id === findingId);
  const dismiss = useMutation<ReviewFinding, ApiError, void>({
    mutationFn: () => api.tasks.dismissFinding(task.id, findingId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['task', task.id] }),
  });
  const followUp = useTaskAction(task, () => api.tasks.followUp(task.id, { findings: [findingId] }));
  if (finding?.status !== 'open') return null;
  const busy = dismiss.isPending || followUp.isPending;
  return (
    <>
      {can('follow_up') ? (
        <button
          type="button"
          className="button-quiet"
          disabled={busy}
          aria-label={`Follow up in the diff: ${finding.message}`}
          onClick={() => followUp.mutate()}
        >
          Follow up
        </button>
      ) : null}
      {can('dismiss_finding') ? (
        <button
          type="button"
          className="button-quiet"
          disabled={busy}
          aria-label={`Dismiss in the diff: ${finding.message}`}
          onClick={() => dismiss.mutate()}
        >
          Dismiss
        </button>
      ) : null}
      <ErrorNote error={dismiss.error ?? followUp.error} />
    </>
  );
}
