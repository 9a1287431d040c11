import type { Approval } from '@keel/protocol/runtime';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { ApiError } from '../../api/errors.ts';
import { toolEditOf } from '../../api/tool-edit.ts';
import { EditDiffViewer } from '../../components/lazy.tsx';
import { Badge, ErrorNote } from '../../components/status.tsx';
import { keelWeb } from '../api/keel-web.ts';
import { timeAgo } from '../format.ts';

type Decision = { action: 'approve' | 'reject'; reason?: string } | { action: 'answer'; answer: string };

/**
 * A human request of a run, decided in place: a tool call a policy holds (with its diff when it edits a
 * file) or a workflow approval gets Approve / Reject with an optional reason; a question gets its options
 * and a free answer. Once decided it shows the decision. `compact` (the side list) leaves out the diff
 * and the reason.
 */
export function ApprovalCard({
  approval,
  compact = false,
  onOpenRun,
}: {
  approval: Approval;
  compact?: boolean;
  onOpenRun?: (runId: string) => void;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const [text, setText] = useState('');
  const decide = useMutation<unknown, ApiError, Decision>({
    mutationFn: (decision) =>
      decision.action === 'answer'
        ? keelWeb.approvals.answer(approval.id, { answer: decision.answer })
        : keelWeb.approvals[decision.action](approval.id, decision.reason ? { reason: decision.reason } : {}),
    onSuccess: () => {
      setText('');
      void queryClient.invalidateQueries({ queryKey: ['approvals'] });
      void queryClient.invalidateQueries({ queryKey: ['run', approval.run_id] });
      void queryClient.invalidateQueries({ queryKey: ['runs'] });
    },
  });
  const toolName = typeof approval.detail.tool_name === 'string' ? approval.detail.tool_name : undefined;
  const args =
    approval.detail.args && typeof approval.detail.args === 'object'
      ? (approval.detail.args as Record<string, unknown>)
      : undefined;
  const edit = toolName && args ? toolEditOf(toolName, args) : undefined;
  const pending = approval.status === 'pending';
  const question = approval.kind === 'question';

  function answer(event: FormEvent) {
    event.preventDefault();
    if (text.trim()) decide.mutate({ action: 'answer', answer: text.trim() });
  }

  return (
    <section
      className={`approval ${pending ? 'approval-pending' : 'approval-decided'}`}
      aria-label={question ? 'Question' : 'Approval'}
      data-approval-id={approval.id}
      data-status={approval.status}
    >
      <div className="approval-head">
        <span className="approval-kind">{question ? 'Question' : 'Approval'}</span>
        <span className="approval-prompt">{approval.prompt}</span>
      </div>
      {compact && onOpenRun ? (
        <button type="button" className="button-link" onClick={() => onOpenRun(approval.run_id)}>
          {approval.run_id} · {timeAgo(approval.created_at)}
        </button>
      ) : null}
      {/* Once decided, the tool call that follows in the transcript shows the same diff. */}
      {!compact && pending && edit ? <EditDiffViewer edit={edit} /> : null}
      {!compact && pending && args && !edit ? (
        <details className="approval-args">
          <summary>
            Arguments of <code>{toolName}</code>
          </summary>
          <pre className="tool-args">{JSON.stringify(args, null, 2)}</pre>
        </details>
      ) : null}
      {pending && question ? (
        <form className="approval-actions" onSubmit={answer}>
          {approval.options.map((option) => (
            <button
              key={option}
              type="button"
              className="button-secondary"
              disabled={decide.isPending}
              onClick={() => decide.mutate({ action: 'answer', answer: option })}
            >
              {option}
            </button>
          ))}
          <label className="sr-only" htmlFor={`${id}-answer`}>
            Your answer
          </label>
          <input
            id={`${id}-answer`}
            value={text}
            placeholder={approval.options.length ? 'Or your own answer' : 'Your answer'}
            onChange={(event) => setText(event.target.value)}
          />
          <button type="submit" className="button-primary" disabled={decide.isPending || !text.trim()}>
            Answer
          </button>
        </form>
      ) : null}
      {pending && !question ? (
        <div className="approval-actions">
          <button
            type="button"
            className="button-primary"
            disabled={decide.isPending}
            onClick={() =>
              decide.mutate({ action: 'approve', ...(text.trim() ? { reason: text.trim() } : {}) })
            }
          >
            {decide.isPending && decide.variables?.action === 'approve' ? 'Approving…' : 'Approve'}
          </button>
          <button
            type="button"
            className="button-danger"
            disabled={decide.isPending}
            onClick={() =>
              decide.mutate({ action: 'reject', ...(text.trim() ? { reason: text.trim() } : {}) })
            }
          >
            {decide.isPending && decide.variables?.action === 'reject' ? 'Rejecting…' : 'Reject'}
          </button>
          {compact ? null : (
            <>
              <label className="sr-only" htmlFor={`${id}-reason`}>
                Reason
              </label>
              <input
                id={`${id}-reason`}
                value={text}
                placeholder="Reason (optional, the model is told)"
                onChange={(event) => setText(event.target.value)}
              />
            </>
          )}
        </div>
      ) : null}
      {pending ? null : (
        <div className="approval-decision">
          <Badge value={approval.status} />
          {approval.answer ? <span> {approval.answer}</span> : null}
          {approval.decided_by ? <span className="hint"> by {approval.decided_by}</span> : null}
          {approval.decided_at ? <span className="hint"> · {timeAgo(approval.decided_at)}</span> : null}
        </div>
      )}
      <ErrorNote error={decide.error} />
    </section>
  );
}
