import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { scrub } from '../../api/error-words.ts';
import type { ApiError } from '../../api/errors.ts';
import type { Task } from '../../api/types.ts';
import { usageWords } from '../../api/usage-words.ts';
import { ErrorNote, TaskBadge } from '../../components/status.tsx';
import { TaskImageThumb } from '../../components/task-image.tsx';
import { PrdLinkErrors } from './prd-link-errors.tsx';
import { storeTask } from './task-actions.ts';
import { NotifyToggle } from './task-attention.tsx';

export function TaskHeader({ task }: { task: Task }) {
  const queryClient = useQueryClient();
  const can = (action: string) => task.allowed_actions.includes(action);
  const cancel = useMutation<Task, ApiError, 'cancel' | 'reopen'>({
    mutationFn: (action) => (action === 'cancel' ? api.tasks.cancel(task.id) : api.tasks.reopen(task.id)),
    onSuccess: (next) => storeTask(queryClient, next),
  });
  const [firstLine, ...rest] = task.description.split('\n');
  return (
    <header className="task-head">
      <div className="page-head">
        <h1 className="task-title">{firstLine}</h1>
        <TaskBadge task={task} />
        <div className="spacer" />
        <NotifyToggle />
        {can('cancel') ? (
          <button
            type="button"
            className="button-quiet"
            disabled={cancel.isPending}
            onClick={() => {
              if (window.confirm('Cancel this task? Its running sessions stop.')) cancel.mutate('cancel');
            }}
          >
            Cancel task
          </button>
        ) : null}
        {can('reopen') ? (
          <button
            type="button"
            className="button-secondary"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate('reopen')}
          >
            Reopen
          </button>
        ) : null}
      </div>
      {rest.join('\n').trim() ? <p className="lede pre">{rest.join('\n').trim()}</p> : null}
      {/* On a narrow screen the facts scroll sideways (kit.css): focusable, so the keyboard can scroll them. */}
      <dl className="facts" tabIndex={0}>
        <div>
          <dt>Branch</dt>
          <dd>
            <code>{task.branch}</code>
          </dd>
        </div>
        <div>
          <dt>Runner</dt>
          <dd>{task.runner ?? 'default'}</dd>
        </div>
        {task.prd_links.length > 0 ? (
          <div>
            <dt>PRD</dt>
            <dd>
              {task.prd_links.map((link) => (
                <a key={link} href={link} target="_blank" rel="noreferrer" className="prd-link">
                  {link}
                </a>
              ))}
            </dd>
          </div>
        ) : null}
        {task.images.length > 0 ? (
          <div>
            <dt>Images</dt>
            <dd className="task-images">
              {task.images.map((image, index) => (
                <TaskImageThumb
                  // biome-ignore lint/suspicious/noArrayIndexKey: the index is the image's address in the API
                  key={index}
                  taskId={task.id}
                  index={index}
                  image={image}
                />
              ))}
            </dd>
          </div>
        ) : null}
        {task.usage ? (
          <div>
            <dt>Used</dt>
            <dd data-testid="task-usage" title={`Every session of the task: ${usageWords(task.usage).title}`}>
              {usageWords(task.usage).text}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Work directory</dt>
          <dd>
            <code>{task.work_dir}</code>
          </dd>
        </div>
      </dl>
      <PrdLinkErrors task={task} />
      {task.error ? (
        <div className="error-note" role="alert">
          {scrub(task.error)}
        </div>
      ) : null}
      <ErrorNote error={cancel.error} />
    </header>
  );
}
