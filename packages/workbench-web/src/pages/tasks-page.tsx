import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client.ts';
import type { ApiError } from '../api/errors.ts';
import { taskWorking } from '../api/task-status.ts';
import type { Flow, Project, Task } from '../api/types.ts';
import { Empty, ErrorNote, Loading } from '../components/status.tsx';
import { TaskBoard } from '../components/task-board.tsx';
import { TaskList } from '../components/task-list.tsx';

type View = 'list' | 'board';
const viewKey = 'keel-workbench-tasks-view';

export default function TasksPage() {
  const tasks = useQuery<Task[], ApiError>({
    queryKey: ['tasks'],
    queryFn: () => api.tasks.list(),
    // While some task works, its badge and column change by themselves.
    refetchInterval: (query) => (query.state.data?.some(taskWorking) ? 3_000 : false),
  });
  const projects = useQuery<Project[], ApiError>({ queryKey: ['projects'], queryFn: api.projects.list });
  const flow = useQuery<Flow, ApiError>({
    queryKey: ['flow'],
    queryFn: api.flow,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [view, setView] = useState<View>(() =>
    localStorage.getItem(viewKey) === 'board' ? 'board' : 'list',
  );
  const choose = (next: View) => {
    localStorage.setItem(viewKey, next);
    setView(next);
  };
  return (
    <div className="page">
      <div className="page-head">
        <h1>Tasks</h1>
        <div className="spacer" />
        <fieldset className="segmented" aria-label="View">
          {(['list', 'board'] as const).map((each) => (
            <label key={each}>
              <input
                type="radio"
                name="tasks-view"
                value={each}
                checked={view === each}
                onChange={() => choose(each)}
              />{' '}
              {each === 'list' ? 'List' : 'Board'}
            </label>
          ))}
        </fieldset>
        <Link className="button button-primary" to="/tasks/new">
          New task
        </Link>
      </div>
      <p className="lede">Each task goes from a requirement to a merge request in five stages.</p>
      {tasks.isPending ? <Loading what="tasks" /> : null}
      <ErrorNote error={tasks.error ?? flow.error} />
      {tasks.data?.length === 0 ? (
        <Empty>
          No tasks yet. <Link to="/tasks/new">Create a task</Link> on a project whose knowledge is generated.
        </Empty>
      ) : null}
      {view === 'board' && flow.data ? (
        <TaskBoard tasks={tasks.data ?? []} projects={projects.data ?? []} flow={flow.data} />
      ) : view === 'list' ? (
        <TaskList tasks={tasks.data ?? []} projects={projects.data ?? []} />
      ) : null}
    </div>
  );
}
