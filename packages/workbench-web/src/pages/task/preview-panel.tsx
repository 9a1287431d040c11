import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import { type ApiError, asApiError } from '../../api/errors.ts';
import type { Preview, Project, Task } from '../../api/types.ts';
import { Badge, ErrorNote } from '../../components/status.tsx';
import { socket } from '../../socket.ts';
import {
  freshLog,
  type LiveLog,
  later,
  readingLog,
  withChunk,
  withoutRead,
  withRead,
} from './preview-log.ts';

/**
 * A task's previews by repository, followed on `task:{id}`: every change and chunk of output as it comes,
 * and, each time the channel is (re)subscribed, the list and the logs read again (the channel replays
 * nothing). `heard` takes a record from an answer too.
 */
function usePreviews(taskId: string) {
  const [previews, setPreviews] = useState<Record<string, Preview>>({});
  const [logs, setLogs] = useState<Record<string, LiveLog>>({});
  const [error, setError] = useState<ApiError | null>(null);
  const heard = useCallback((preview: Preview) => {
    const name = preview.repository;
    setPreviews((current) => ({ ...current, [name]: later(current[name], preview) }));
    // A start not seen before has a log of its own, from its first chunk.
    setLogs((current) => {
      const log = current[name];
      return log && log.startedAt >= preview.started_at
        ? current
        : { ...current, [name]: freshLog(preview.started_at) };
    });
  }, []);
  useEffect(() => {
    let cancelled = false;
    setPreviews({});
    setLogs({});
    setError(null);
    const setLog = (name: string, change: (log: LiveLog) => LiveLog) =>
      setLogs((current) => {
        const log = current[name];
        return log ? { ...current, [name]: change(log) } : current;
      });
    const readLog = async (preview: Preview) => {
      const name = preview.repository;
      // The read is taken only by the same start's log, while it waits for a read.
      const ifWaiting = (log: LiveLog, change: (log: LiveLog) => LiveLog) =>
        log.startedAt === preview.started_at && log.early ? change(log) : log;
      try {
        const read = await api.tasks.previewLog(taskId, name);
        if (!cancelled) setLog(name, (log) => ifWaiting(log, (waiting) => withRead(waiting, read)));
      } catch (failure) {
        if (cancelled) return;
        setLog(name, (log) => ifWaiting(log, withoutRead));
        setError(asApiError(failure));
      }
    };
    const read = async () => {
      try {
        const list = await api.tasks.previews(taskId);
        if (cancelled) return;
        setError(null);
        for (const preview of list) {
          setPreviews((current) => ({
            ...current,
            [preview.repository]: later(current[preview.repository], preview),
          }));
          // A start heard since the list was read is newer: its log stays as the channel tells it.
          setLogs((current) => {
            const log = current[preview.repository];
            if (log && log.startedAt > preview.started_at) return current;
            return { ...current, [preview.repository]: readingLog(log, preview.started_at) };
          });
        }
        await Promise.all(list.map(readLog));
      } catch (failure) {
        if (!cancelled) setError(asApiError(failure));
      }
    };
    const stop = socket.subscribeTask(taskId, {
      onSubscribed: () => void read(),
      onPreview: heard,
      onPreviewLog: (chunk) => setLog(chunk.repository, (log) => withChunk(log, chunk)),
    });
    return () => {
      cancelled = true;
      stop();
    };
  }, [taskId, heard]);
  return { previews, logs, heard, error };
}

/**
 * The task's previews: per repository of its workspace, its preview command's state, Start and Stop, the
 * URL once it answers, why it ended, and its log live. A repository with no command says where to set one.
 */
export function PreviewPanel({ task, project }: { task: Task; project: Project }) {
  const ids = useId();
  const { previews, logs, heard, error } = usePreviews(task.id);
  return (
    <section className="card previews" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Preview</h2>
      <p className="hint">
        Runs a repository's preview command (its dev server) in this task's workspace, in the sandbox with the
        network on, on a free local port given as <code>$PORT</code>. It runs until you stop it, delete the
        task or stop the workbench.
      </p>
      <ErrorNote error={error} />
      <ul className="preview-rows">
        {task.workspaces.map(({ repository }) => (
          <PreviewRow
            key={repository}
            taskId={task.id}
            project={project}
            repository={repository}
            preview={previews[repository]}
            log={logs[repository]}
            onPreview={heard}
          />
        ))}
      </ul>
    </section>
  );
}

const stateTones: Record<Preview['state'], string> = {
  starting: 'busy',
  running: 'ok',
  exited: 'bad',
  stopped: 'muted',
};

/** Its badge's tone: a command that ended by itself without an error is no failure. */
function toneOf(preview: Preview | undefined): string {
  if (!preview) return 'idle';
  return preview.state === 'exited' && preview.exit_code === 0 ? 'muted' : stateTones[preview.state];
}

/** How it ended, in words (nothing while it runs). */
function ending(preview: Preview): string | null {
  if (preview.state !== 'exited') return null;
  if (preview.signal) return `Ended by ${preview.signal}.`;
  return `Exited with code ${preview.exit_code ?? '?'}: see its log.`;
}

function PreviewRow({
  taskId,
  project,
  repository,
  preview,
  log,
  onPreview,
}: {
  taskId: string;
  project: Project;
  repository: string;
  preview: Preview | undefined;
  log: LiveLog | undefined;
  onPreview: (preview: Preview) => void;
}) {
  const command = project.repositories.find((entry) => entry.name === repository)?.preview?.command;
  const start = useMutation<Preview, ApiError, void>({
    mutationFn: () => api.tasks.startPreview(taskId, repository),
    onSuccess: onPreview,
  });
  const stop = useMutation<Preview, ApiError, void>({
    mutationFn: () => api.tasks.stopPreview(taskId, repository),
    onSuccess: onPreview,
  });
  if (!command && !preview) {
    return (
      <li className="preview-row" data-repository={repository}>
        <div className="preview-head">
          <code className="preview-name">{repository}</code>
          <span className="hint">
            No preview command. Set one in the <Link to={`/projects/${project.id}`}>project's settings</Link>:
            a command that serves on <code>$PORT</code>, e.g. <code>npm run dev</code>.
          </span>
        </div>
      </li>
    );
  }
  const live = preview?.state === 'starting' || preview?.state === 'running';
  const ended = preview ? ending(preview) : null;
  return (
    <li
      className="preview-row"
      data-testid="preview-row"
      data-repository={repository}
      data-state={preview?.state ?? 'not-started'}
    >
      <div className="preview-head">
        <code className="preview-name">{repository}</code>
        <Badge value={preview?.state ?? 'not started'} tone={toneOf(preview)} />
        {preview?.state === 'running' ? (
          <a href={preview.url} target="_blank" rel="noopener">
            {preview.url}
          </a>
        ) : null}
        <code className="hint preview-command">{preview?.command ?? command}</code>
        <div className="spacer" />
        {live ? (
          <button
            type="button"
            className="button-secondary"
            disabled={stop.isPending}
            onClick={() => stop.mutate()}
          >
            {stop.isPending ? 'Stopping…' : 'Stop'}
          </button>
        ) : (
          <button
            type="button"
            className="button-primary"
            disabled={!command || start.isPending}
            title={
              command
                ? undefined
                : "The repository has no preview command now: set one in the project's settings."
            }
            onClick={() => start.mutate()}
          >
            {start.isPending ? 'Starting…' : preview ? 'Start again' : 'Start'}
          </button>
        )}
      </div>
      {preview?.state === 'starting' ? (
        <p className="hint preview-note">Waiting for it to answer on port {preview.port}…</p>
      ) : null}
      {ended ? <p className="hint preview-note">{ended}</p> : null}
      {preview?.error ? <div className="error-text">{preview.error}</div> : null}
      <ErrorNote error={start.error ?? stop.error} />
      {log ? <PreviewLogView repository={repository} log={log} /> : null}
    </li>
  );
}

/** The log, following its end while the reader is there (scrolled up, it stays where they read). */
function PreviewLogView({ repository, log }: { repository: string; log: LiveLog }) {
  const box = useRef<HTMLPreElement>(null);
  const following = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new text is what scrolls it.
  useLayoutEffect(() => {
    if (following.current && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [log.text]);
  return (
    <details className="preview-log" open>
      <summary>Log{log.truncated ? ' (its end)' : ''}</summary>
      <pre
        ref={box}
        className="check-output"
        role="log"
        aria-label={`${repository} preview log`}
        onScroll={(event) => {
          const { scrollHeight, scrollTop, clientHeight } = event.currentTarget;
          following.current = scrollHeight - scrollTop - clientHeight < 24;
        }}
      >
        {log.text || (log.early ? 'Reading…' : '(no output yet)')}
      </pre>
    </details>
  );
}
