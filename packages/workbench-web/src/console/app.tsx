import type { ConfigStatus, ServerInfo } from '@keel/protocol/runtime';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { ApiError } from '../api/errors.ts';
import { KeyPrompt } from '../components/key-prompt.tsx';
import { Loading } from '../components/status.tsx';
import { ThemeToggle } from '../components/theme-toggle.tsx';
import { keelWeb } from './api/keel-web.ts';
import { NewRunForm } from './components/new-run-form.tsx';
import { PendingApprovals } from './components/pending-approvals.tsx';
import { ProjectList } from './components/project-list.tsx';
import { RunList } from './components/run-list.tsx';
import type { RunTarget } from './run-target.ts';

// The run pane (transcript, controls, timeline) and the project pane are chunks of their own: the first
// load is the shell and the side.
const RunView = lazy(() => import('./components/run-view.tsx'));
const ProjectView = lazy(() => import('./components/project-view.tsx'));

/** What the main pane shows: a run or a project, from the address (`?run=<id>`, `?project=<id>`). */
type Open = { run: string | null; project: string | null };
const openInAddress = (): Open => {
  const params = new URLSearchParams(window.location.search);
  const run = params.get('run') || null;
  return { run, project: run ? null : params.get('project') || null };
};

/** The open run or project lives in the address: links to either work, and Back goes back. */
function useOpen(): [Open, (kind: 'run' | 'project', id: string) => void] {
  const [open, setOpen] = useState(openInAddress);
  useEffect(() => {
    const onPop = () => setOpen(openInAddress());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const go = useCallback((kind: 'run' | 'project', id: string) => {
    window.history.pushState(null, '', id ? `?${kind}=${encodeURIComponent(id)}` : window.location.pathname);
    setOpen({ run: kind === 'run' && id ? id : null, project: kind === 'project' && id ? id : null });
  }, []);
  return [open, go];
}

/** keel-web's console: start runs, decide what they wait for, and follow one. */
export function ConsoleApp() {
  const [open, go] = useOpen();
  const runId = open.run;
  const openRun = useCallback((id: string) => go('run', id), [go]);
  const openProject = useCallback((id: string) => go('project', id), [go]);
  const [target, setTarget] = useState<RunTarget | null>(null);
  const info = useQuery<ServerInfo, ApiError>({ queryKey: ['info'], queryFn: keelWeb.info });
  return (
    <div className="shell console">
      <header className="topbar">
        <a
          href="/console"
          className="brand"
          onClick={(event) => {
            event.preventDefault();
            openRun('');
          }}
        >
          <span className="brand-mark" aria-hidden="true">
            ⎈
          </span>
          Keel <span className="brand-sub">console</span>
        </a>
        {info.data ? (
          <span className="hint server-info" data-testid="server-info">
            keel-web {info.data.version} · <code>{info.data.workdir}</code>
          </span>
        ) : null}
        <a className="nav-docs" href="/docs" target="_blank" rel="noreferrer">
          API docs ↗
        </a>
        <ThemeToggle />
      </header>
      <KeyPrompt
        label="keel-web API key"
        title="This server needs its API key"
        hint={
          <>
            keel-web runs with <code>RUNTIME_AUTH_API_KEY</code>. The key stays in this browser.
          </>
        }
        check={keelWeb.info}
      />
      <ReadinessBanner />
      <div className="console-layout">
        <aside className="console-side" aria-label="Runs, approvals and projects">
          <NewRunForm
            defaultWorkdir={info.data?.workdir}
            target={target}
            onClearTarget={() => setTarget(null)}
            onStarted={(run) => openRun(run.id)}
          />
          <PendingApprovals onOpenRun={openRun} />
          <ProjectList selected={open.project} defaultWorkdir={info.data?.workdir} onOpen={openProject} />
          <RunList selected={runId} onOpen={openRun} />
        </aside>
        <main className="console-main">
          {runId ? (
            <Suspense fallback={<Loading what="run" />}>
              <RunView key={runId} runId={runId} onOpenRun={openRun} />
            </Suspense>
          ) : open.project ? (
            <Suspense fallback={<Loading what="project" />}>
              <ProjectView
                key={open.project}
                projectId={open.project}
                onOpenRun={openRun}
                onClosed={() => openRun('')}
                onStartIn={setTarget}
              />
            </Suspense>
          ) : (
            <Welcome />
          )}
        </main>
      </div>
    </div>
  );
}

/** `GET /config/status`: a run cannot reach a model while something is missing; say so before it fails. */
function ReadinessBanner() {
  const status = useQuery<ConfigStatus, ApiError>({
    queryKey: ['config-status'],
    queryFn: keelWeb.config.status,
  });
  if (!status.data || status.data.ready) return null;
  return (
    <div className="banner banner-warn" role="status">
      The model is not configured: <strong>{status.data.missing.join(', ')}</strong> missing. Runs fail until
      it is set (<code>RUNTIME_MODEL</code>, <code>RUNTIME_MODEL_API_KEY</code> or{' '}
      <code>keel config setup</code>).
    </div>
  );
}

function Welcome() {
  return (
    <div className="welcome card">
      <h1>Run the agent from here</h1>
      <p className="lede">
        Write a prompt on the left and start a run: its transcript streams here, with every tool call, every
        edit as a diff, and the approvals it waits for. Runs started with <code>keel run</code> or the API
        show up too.
      </p>
      <ul className="welcome-points">
        <li>
          <kbd>Ctrl</kbd>+<kbd>Enter</kbd> starts the run from any field of the form.
        </li>
        <li>
          Pause, resume, cancel, retry and fork from the bar above a run; fork from any checkpoint in its
          timeline.
        </li>
        <li>Approvals and questions are answered in place, or from “Waiting for you”.</li>
        <li>
          A project is a directory with its own session, tasks (git branches) and guide (
          <code>AGENTS.md</code>, written by its init run); sub-agents a run spawns open from its transcript
          and timeline.
        </li>
      </ul>
    </div>
  );
}
