import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../api/client.ts';
import type { ApiError } from '../api/errors.ts';
import type { Project, Task } from '../api/types.ts';
import { Empty, ErrorNote, Loading } from '../components/status.tsx';
import { TaskList } from '../components/task-list.tsx';

export default function TasksPage() {
  const tasks = useQuery<Task[], ApiError>({ queryKey: ['tasks'], queryFn: () => api.tasks.list() });
  const projects = useQuery<Project[], ApiError>({ queryKey: ['projects'], queryFn: api.projects.list });
  return (
    <div className="page">
      <div className="page-head">
        <h1>Tasks</h1>
        <div className="spacer" />
        <Link className="button button-primary" to="/tasks/new">
          New task
        </Link>
      </div>
      <p className="lede">Each task goes from a requirement to a merge request in five stages.</p>
      {tasks.isPending ? <Loading what="tasks" /> : null}
      <ErrorNote error={tasks.error} />
      {tasks.data?.length === 0 ? (
        <Empty>
          No tasks yet. <Link to="/tasks/new">Create a task</Link> on a project whose knowledge is generated.
        </Empty>
      ) : null}
      <TaskList tasks={tasks.data ?? []} projects={projects.data ?? []} />
    </div>
  );
}
