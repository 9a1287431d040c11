import type { Approval, RunDetail, ServerInfo, Step } from '@keel/protocol/runtime';
import { finishedStatuses } from '@keel/protocol/runtime/names';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import type { ApiError } from '../../api/errors.ts';
import { Markdown } from '../../components/lazy.tsx';
import { MessageBox } from '../../components/message-box.tsx';
import { Empty, ErrorNote, Loading } from '../../components/status.tsx';
import { TranscriptBlock } from '../../components/transcript-block.tsx';
import { keelWeb } from '../api/keel-web.ts';
import { type AgentItem, foldRunEvents, type RunItem, toolCatalogue } from '../api/run-transcript.ts';
import { formatTokens } from '../format.ts';
import { agentOutcome } from '../run-label.ts';
import { useRunEvents } from '../use-run-events.ts';
import { ApprovalCard } from './approval-card.tsx';
import { Elapsed } from './elapsed.tsx';
import { RunLink } from './run-link.tsx';
import { currentStep, RunProgress } from './run-progress.tsx';

/**
 * A run as a readable transcript, live: its prompt, thinking, text, tool calls with their results (edits
 * as diffs), approvals and questions answered in place, and where it stands now. While it runs, a message
 * box steers it (`POST /runtime/runs/{id}/input`, seen at the model's next turn).
 */
export function RunTranscript({ run, onOpenRun }: { run: RunDetail; onOpenRun: (runId: string) => void }) {
  const active = !finishedStatuses.includes(run.status);
  const { records, loaded, trouble } = useRunEvents(run.id, active);
  // The server's tool catalogue, from the top bar's query (`/console/info`): fixed while the server lives.
  const info = useQuery<ServerInfo, ApiError>({
    queryKey: ['info'],
    queryFn: keelWeb.info,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const catalogue = useMemo(() => toolCatalogue(info.data?.tools), [info.data]);
  const items = useMemo(() => foldRunEvents(records, catalogue, active), [records, catalogue, active]);
  const approvals = useQuery<Approval[], ApiError>({
    queryKey: ['approvals', 'run', run.id],
    queryFn: () => keelWeb.approvals.list({ run_id: run.id, limit: 500 }),
  });
  const byId = useMemo(
    () => new Map((approvals.data ?? []).map((approval) => [approval.id, approval])),
    [approvals.data],
  );
  const send = useMutation<unknown, ApiError, string>({
    mutationFn: (content) => keelWeb.runs.input(run.id, content),
  });
  const step = currentStep(run);
  const lastText = items.findLast(
    (item): item is Extract<RunItem, { type: 'assistant' }> => item.type === 'assistant',
  )?.content;

  // Follow the end while the reader is at the end (whatever grew it: an event, a diff or Markdown that
  // loaded late); scrolling up stops following.
  const box = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const toEnd = () => {
      if (follow.current) element.scrollTop = element.scrollHeight;
    };
    toEnd();
    const observer = new MutationObserver(toEnd);
    observer.observe(element, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, []);

  return (
    <section className="run-transcript" aria-label="Transcript">
      <div
        ref={box}
        className="transcript"
        data-testid="transcript"
        onScroll={(event) => {
          const element = event.currentTarget;
          follow.current = element.scrollHeight - element.scrollTop - element.clientHeight < 60;
        }}
      >
        <div className="t-user t-prompt">
          <div className="t-label">Prompt</div>
          <div className="t-body pre">{run.prompt}</div>
        </div>
        {loaded ? null : <Loading what="transcript" />}
        {trouble ? (
          <div className="stream-trouble" role="status">
            Lost the run's event stream; reconnecting from event {records.at(-1)?.seq ?? 0}…{' '}
            <ErrorNote error={trouble} />
          </div>
        ) : null}
        {items.map((item) => (
          <RunBlock
            key={`${item.type}-${item.seq}`}
            item={item}
            runId={run.id}
            approval={item.type === 'ask' ? byId.get(item.requestId) : undefined}
            step={step}
            active={active}
            lastText={lastText}
            onOpenRun={onOpenRun}
          />
        ))}
        {loaded && !active && items.length === 0 ? <Empty>This run recorded no events.</Empty> : null}
        <RunProgress run={run} />
      </div>
      {active ? (
        <MessageBox
          label="Message the agent"
          placeholder="Seen at its next turn (Enter sends, Shift+Enter for a new line)"
          pending={send.isPending}
          error={send.error}
          onSend={(content) => send.mutate(content)}
        />
      ) : null}
    </section>
  );
}

function RunBlock({
  item,
  runId,
  approval,
  step,
  active,
  lastText,
  onOpenRun,
}: {
  item: RunItem;
  runId: string;
  approval: Approval | undefined;
  step: Step | undefined;
  active: boolean;
  /** The run's last text, which the summary of `done` often repeats. */
  lastText: string | undefined;
  onOpenRun: (runId: string) => void;
}) {
  switch (item.type) {
    case 'agent':
      return <AgentBlock item={item} onOpenRun={onOpenRun} />;
    case 'ask':
      // Until the approval's record is read, the request as the event announced it (still answerable).
      return (
        <div className="t-ask">
          <ApprovalCard
            approval={
              approval ?? {
                id: item.requestId,
                run_id: runId,
                step_id: null,
                node_id: '',
                kind: item.kind === 'question' ? 'question' : 'tool',
                prompt: item.prompt,
                options: item.options,
                detail: {},
                status: 'pending',
                answer: null,
                decided_by: null,
                created_at: new Date().toISOString(),
                decided_at: null,
              }
            }
          />
        </div>
      );
    case 'done':
      return (
        <div className="t-done" data-testid="run-done">
          <strong>✓ Done</strong> · {formatTokens(item.usage.total_tokens)} (
          {item.usage.input_tokens.toLocaleString()} in, {item.usage.output_tokens.toLocaleString()} out)
          {item.summary && item.summary.trim() !== lastText?.trim() ? (
            <div className="t-summary">
              <Markdown>{item.summary}</Markdown>
            </div>
          ) : null}
          {item.nextSteps.length ? (
            <ul className="t-next">
              {item.nextSteps.map((next) => (
                <li key={next}>{next}</li>
              ))}
            </ul>
          ) : null}
        </div>
      );
    default:
      return (
        <TranscriptBlock
          item={item}
          running={
            !active ? (
              <span className="hint">did not finish</span>
            ) : step?.kind === 'tool_batch' ? (
              <span className="hint">
                running… <Elapsed since={step.started_at} />
              </span>
            ) : undefined
          }
        />
      );
  }
}

/** A sub-agent's spawn or end, in the parent's transcript: what it was asked, how it ended, its run. */
function AgentBlock({ item, onOpenRun }: { item: AgentItem; onOpenRun: (runId: string) => void }) {
  const ok = item.status === 'completed';
  const tone = item.event === 'spawned' ? 'spawned' : ok ? 'ok' : 'bad';
  return (
    <div className={`t-agent t-agent-${tone}`} data-agent-event={item.event} data-agent-id={item.agentId}>
      <div className="t-agent-head">
        <span className="t-agent-mark" aria-hidden="true">
          ↳
        </span>
        <strong>
          {item.event === 'spawned'
            ? `Sub-agent spawned${item.agentType ? ` (${item.agentType})` : ''}`
            : `Sub-agent ${agentOutcome(item.status ?? '')}${item.agentType ? ` (${item.agentType})` : ''}`}
        </strong>
        <RunLink runId={item.runId} onOpenRun={onOpenRun}>
          Open its run →
        </RunLink>
      </div>
      {item.task ? <div className="t-agent-task">{item.task}</div> : null}
      <div className="hint t-agent-ids">
        <code>{item.agentId}</code> · <code>{item.runId}</code>
      </div>
      {item.error ? <div className="t-error">{item.error}</div> : null}
    </div>
  );
}
