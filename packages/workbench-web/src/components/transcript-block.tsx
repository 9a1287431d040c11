import type { ReactNode } from 'react';
import type { TranscriptItem } from '../api/transcript.ts';
import { EditDiffViewer, Markdown } from './lazy.tsx';
import { Badge } from './status.tsx';

/**
 * One block of a transcript: text (Markdown once complete), thinking (collapsed), a tool call with its
 * result (a file edit as a diff), a step, an error, a retry or a note. `running` replaces the "running…"
 * of a tool call still waiting for its result (the console shows the elapsed time there).
 */
export function TranscriptBlock({ item, running }: { item: TranscriptItem; running?: ReactNode }) {
  switch (item.type) {
    case 'user':
      return (
        <div className="t-user">
          <div className="t-label">You</div>
          <div className="t-body pre">{item.content}</div>
        </div>
      );
    case 'assistant':
      return (
        <div className={`t-assistant ${item.streaming ? 'streaming' : ''}`}>
          <div className="t-label">Assistant</div>
          {item.streaming ? (
            <div className="t-body pre">{item.content}</div>
          ) : (
            <div className="t-body">
              <Markdown>{item.content}</Markdown>
            </div>
          )}
        </div>
      );
    case 'thinking':
      return (
        <details className="t-thinking">
          <summary>Thinking</summary>
          <div className="pre">{item.content}</div>
        </details>
      );
    case 'tool':
      return (
        <div
          className={`t-tool ${item.result && !item.result.ok ? 'failed' : ''}`}
          data-tool={item.name}
          data-state={item.result ? (item.result.ok ? 'ok' : 'failed') : 'running'}
        >
          <details>
            <summary>
              <span className="tool-kind">{item.kind.replace('_', ' ')}</span> <code>{item.name}</code>
              {item.path ? (
                <code className="hint"> {item.path}</code>
              ) : preview(item.args) ? (
                <code className="hint tool-preview">{preview(item.args)}</code>
              ) : null}{' '}
              {item.result ? (
                <span className={item.result.ok ? 'ok' : 'bad'}>{item.result.ok ? '✓' : '✗ failed'}</span>
              ) : (
                (running ?? <span className="hint">running…</span>)
              )}
            </summary>
            {/* An edit's arguments are its diff, shown below. */}
            {item.edit ? null : <pre className="tool-args">{JSON.stringify(item.args, null, 2)}</pre>}
            {item.result ? <pre className="tool-result">{item.result.text}</pre> : null}
          </details>
          {item.edit ? <EditDiffViewer edit={item.edit} /> : null}
        </div>
      );
    case 'step':
      // The workbench's own turns and checks in a todo: the timeline checks failed → repair 1 → passed.
      if (item.step === 'repair' || item.step === 'checks') {
        const repair = item.step === 'repair';
        return (
          <div className={`t-step step-${item.step}`} data-testid={`step-${item.step}`}>
            <Badge
              value={repair ? 'repair' : item.status === 'done' ? 'checks passed' : 'checks failed'}
              tone={repair ? 'warn' : item.status === 'done' ? 'ok' : 'bad'}
            />{' '}
            <span>{item.detail}</span>
          </div>
        );
      }
      return (
        <div className={`t-step step-${item.status}`}>
          <Badge value={item.status} /> <code>{item.step}</code>
          {item.detail ? <span className="hint"> {item.detail}</span> : null}
          {item.error ? (
            <div className="t-error">
              <strong>{item.error.code}</strong> {item.error.message}
            </div>
          ) : null}
        </div>
      );
    case 'error':
      // The user's own Stop ends a turn as CANCELLED: said as what it is, not as a failure.
      if (item.error.code === 'CANCELLED') {
        return (
          <div className="t-stopped" role="status" data-testid="stopped-by-you">
            Stopped by you.
          </div>
        );
      }
      return (
        <div className="t-error" role="alert">
          <strong>{item.error.code}</strong> {item.error.message}
        </div>
      );
    case 'retry':
      return (
        <div className="t-meta">
          Retry {item.attempt}/{item.max}: {item.error}
        </div>
      );
    case 'usage':
      return (
        <div className="t-meta">
          {item.usage.input_tokens.toLocaleString()} in · {item.usage.output_tokens.toLocaleString()} out
        </div>
      );
    case 'meta':
      return <div className="t-meta">{item.text}</div>;
  }
}

/** The call's first text argument (a command, a pattern, a query), cut as the CLI cuts it. */
function preview(args: Record<string, unknown>): string | undefined {
  const text = Object.values(args).find((value): value is string => typeof value === 'string');
  if (!text) return undefined;
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
