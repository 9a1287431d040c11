import { Link } from 'react-router';
import { taskWorking } from '../api/task-status.ts';
import type { Flow, Project, Task } from '../api/types.ts';
import { TaskBadge } from './status.tsx';

interface Column {
  key: string;
  title: string;
  tasks: Task[];
}

/** The board's columns: the flow's stages in order, then Done and Cancelled. */
function columns(tasks: readonly Task[], flow: Flow): Column[] {
  const board: Column[] = [
    ...flow.stages.map((stage) => ({
      key: stage.key,
      title: `${stage.number} ${stage.title}`,
      tasks: [] as Task[],
    })),
    { key: 'done', title: 'Done', tasks: [] },
    { key: 'cancelled', title: 'Cancelled', tasks: [] },
  ];
  for (const task of tasks) {
    const key =
      task.state === 'DONE'
        ? 'done'
        : task.state === 'CANCELLED'
          ? 'cancelled'
          : (flow.stages.find((stage) => stage.states.includes(task.state))?.key ?? flow.stages[0]?.key);
    board.find((column) => column.key === key)?.tasks.push(task);
  }
  // The ones the service works on now first, then the latest changed.
  for (const column of board) {
    column.tasks.sort(
      (a, b) => Number(taskWorking(b)) - Number(taskWorking(a)) || b.updated_at.localeCompare(a.updated_at),
    );
  }
  return board;
}

/**
 * Every task as a card in the column of its stage, across projects, the running ones at the top of each
 * column: what needs the user and what works by itself, at a glance.
 */
export function TaskBoard({ tasks, projects, flow }: { tasks: Task[]; projects: Project[]; flow: Flow }) {
  if (tasks.length === 0) return null;
  return (
    <div className="task-board" data-testid="task-board">
      {columns(tasks, flow).map((column) => (
        <section key={column.key} className="board-column" aria-label={column.title} data-column={column.key}>
          <h2 className="board-title">
            {column.title} <span className="hint">{column.tasks.length}</span>
          </h2>
          <ul>
            {column.tasks.map((task) => (
              <li
                key={task.id}
                className={`board-card${taskWorking(task) ? ' working' : ''}`}
                data-testid="board-card"
              >
                <Link to={`/tasks/${task.id}`} className="clamp">
                  {task.description.split('\n')[0]}
                </Link>
                <div className="hint">
                  {projects.find((project) => project.id === task.project_id)?.name ?? task.project_id}
                </div>
                <TaskBadge task={task} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
