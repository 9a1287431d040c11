import { api } from '../../api/client.ts';
import type { Task } from '../../api/types.ts';
import { ErrorNote } from '../../components/status.tsx';
import { useTaskAction } from './task-actions.ts';

/**
 * "Run setup again": the repositories' setup steps again in this task's workspaces (after turning setup on
 * in the project's settings, or editing a setup command), shown once init is done and the task allows it.
 */
export function RunSetupButton({ task }: { task: Task }) {
  const setup = useTaskAction(task, () => api.tasks.setup(task.id));
  const hasSetup = task.init.steps.some((step) => step.name.startsWith('setup:'));
  if (!task.allowed_actions.includes('setup') || task.init.status !== 'done') return null;
  const running = task.init.steps.some(
    (step) => step.name.startsWith('setup:') && (step.status === 'running' || step.status === 'pending'),
  );
  return (
    <>
      <button
        type="button"
        className="button-secondary"
        disabled={setup.isPending || running}
        title="Installs each repository's dependencies again in this task's workspaces (the project's setup commands)"
        onClick={() => setup.mutate()}
      >
        {running ? 'Running setup…' : hasSetup ? 'Run setup again' : 'Run setup'}
      </button>
      <ErrorNote error={setup.error} />
    </>
  );
}
