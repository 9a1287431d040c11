import { Link } from 'react-router';
import type { Project, Task } from '../api/types.ts';
import { TaskBadge } from './status.tsx';

/** Tasks as a table: the first line of the description, the project (when given), state and branch. */
export function TaskList({ tasks, projects }: { tasks: Task[]; projects?: Project[] }) {
  if (tasks.length === 0) return null;
  return (
    <table className="list-table" data-testid="task-list">
      <thead>
        <tr>
          <th scope="col">Task</th>
          {projects ? <th scope="col">Project</th> : null}
          <th scope="col">State</th>
          <th scope="col" className="wide-only">
            Branch
          </th>
          <th scope="col" className="wide-only">
            Updated
          </th>
        </tr>
      </thead>
      <tbody>
        {tasks.map((task) => (
          <tr key={task.id}>
            <td>
              <Link to={`/tasks/${task.id}`} className="clamp-1">
                {task.description.split('\n')[0]}
              </Link>
            </td>
            {projects ? (
              <td>
                <Link to={`/projects/${task.project_id}`}>
                  {projects.find((project) => project.id === task.project_id)?.name ?? task.project_id}
                </Link>
              </td>
            ) : null}
            <td>
              <TaskBadge task={task} />
            </td>
            <td className="wide-only">
              <code className="hint">{task.branch}</code>
            </td>
            <td className="hint wide-only">{new Date(task.updated_at).toLocaleString()}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
