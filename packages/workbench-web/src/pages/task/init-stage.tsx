import { api } from '../../api/client.ts';
import type { Task } from '../../api/types.ts';
import { CodeSpans } from '../../components/code-spans.tsx';
import { SessionView } from '../../components/session-view.tsx';
import { Badge, Empty, ErrorNote } from '../../components/status.tsx';
import { RunSetupButton } from './run-setup-button.tsx';
import { useRefreshOnFinish, useTaskAction } from './task-actions.ts';

export function InitStage({ task }: { task: Task }) {
  const can = (action: string) => task.allowed_actions.includes(action);
  const init = useTaskAction(task, () => api.tasks.init(task.id));
  const confirm = useTaskAction(task, () => api.tasks.confirmInit(task.id));
  const refresh = useRefreshOnFinish(task);
  const failed = task.init.status === 'failed';
  return (
    <section className="card stage" aria-labelledby="stage-title">
      <h2 id="stage-title">01 · Initialization</h2>
      <p className="hint">
        Copies every repository into the task's work directory on the task branch, installs each one's
        dependencies with its setup command when the project's settings allow it, syncs the skills and copies
        the project knowledge. No AI runs here.
      </p>
      {task.init.steps.length === 0 ? (
        <Empty>Not started.</Empty>
      ) : (
        <ul className="init-steps">
          {task.init.steps.map((step) => (
            <li key={step.name}>
              <Badge value={step.status} /> <code>{step.name}</code>
              {step.detail ? (
                <span className="hint">
                  {' '}
                  <CodeSpans text={step.detail} />
                </span>
              ) : null}
              {step.error ? (
                <div className="error-text">
                  <CodeSpans text={step.error} />
                </div>
              ) : null}
              {step.output ? (
                // A command's step (setup): its output's start and end; the whole is in the log below.
                <details className="step-output" open={step.status === 'failed'}>
                  <summary>Output</summary>
                  <pre className="check-output">{step.output}</pre>
                </details>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <div className="stage-actions">
        {/* Init starts by itself with the task: the button is there only to retry, or to start one that has
            not (its project was not ready). */}
        {can('init') && (failed || task.init.status === 'idle') ? (
          <button
            type="button"
            className="button-primary"
            disabled={init.isPending}
            onClick={() => init.mutate()}
          >
            {failed ? 'Retry initialization' : 'Initialize'}
          </button>
        ) : null}
        <button
          data-shortcut="next"
          type="button"
          className="button-primary"
          disabled={!can('confirm_init') || task.init.status !== 'done' || confirm.isPending}
          onClick={() => confirm.mutate()}
        >
          Confirm and start planning →
        </button>
        <RunSetupButton task={task} />
      </div>
      <ErrorNote error={init.error ?? confirm.error} />
      {task.init_session_id ? (
        <details className="log-details" open={failed}>
          <summary>Initialization log</summary>
          <SessionView sessionId={task.init_session_id} title="Initialization log" onStatus={refresh} />
        </details>
      ) : null}
    </section>
  );
}
