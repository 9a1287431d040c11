import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api/client.ts';
import type { ApiError } from '../api/errors.ts';
import { taskWorking } from '../api/task-status.ts';
import type { Flow, Project, Task } from '../api/types.ts';
import { isNotFound, NotFound } from '../components/not-found.tsx';
import { ErrorNote, Loading } from '../components/status.tsx';

import { CodingStage } from './task/coding-stage.tsx';
import { InitStage } from './task/init-stage.tsx';
import { PlanStage } from './task/plan-stage.tsx';
import { PreviewPanel } from './task/preview-panel.tsx';
import { ReviewStage } from './task/review-stage.tsx';
import { useTaskAttention } from './task/task-attention.tsx';
import { TaskHeader } from './task/task-header.tsx';
import { TodosStage } from './task/todos-stage.tsx';

/** The stage a state belongs to, by the flow the service serves (`GET /api/flow`). */
function stageOf(task: Task, flow: Flow): number {
  const state = task.state === 'CANCELLED' ? (task.cancelled_from ?? 'CREATED') : task.state;
  const index = flow.stages.findIndex((stage) => stage.states.includes(state));
  return Math.max(index, 0);
}

/** Each stage's view by its key; a stage the service has and the SPA does not yet draw says so. */
const stageViews: Record<string, (props: { task: Task }) => React.ReactNode> = {
  init: InitStage,
  plan: PlanStage,
  todos: TodosStage,
  coding: CodingStage,
  review: ReviewStage,
};

/** How often to look at the task again: often while the service works on it, rarely otherwise. */
function pollInterval(task: Task | undefined): number | false {
  if (!task) return false;
  if (task.state === 'CANCELLED') return false;
  // A submitted merge request is read by the service until merged or closed: its news shows by itself.
  const following = task.merge_requests?.some((mr) => mr.following) ?? false;
  if (task.state === 'DONE') return following ? 10_000 : false;
  return taskWorking(task) ? 1_500 : 4_000;
}

export default function TaskPage() {
  const { id = '' } = useParams();
  const task = useQuery<Task, ApiError>({
    queryKey: ['task', id],
    queryFn: () => api.tasks.get(id),
    refetchInterval: (query) => pollInterval(query.state.data),
  });
  const project = useQuery<Project, ApiError>({
    queryKey: ['project', task.data?.project_id],
    queryFn: () => api.projects.get(task.data?.project_id ?? ''),
    enabled: Boolean(task.data?.project_id),
  });
  // An earlier stage the user is reading, and the task's state when they chose it: any change of the state
  // (the task moved on, or back) ends the reading, and the page shows the new current stage.
  // The stages and their states: the service's one table, read once.
  const flow = useQuery<Flow, ApiError>({
    queryKey: ['flow'],
    queryFn: api.flow,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [viewed, setViewed] = useState<{ stage: number; state: Task['state'] } | null>(null);
  useTaskAttention(task.data);

  if (task.isPending || flow.isPending) return <Loading what="task" />;
  if (flow.error) return <ErrorNote error={flow.error} />;
  if (task.error) {
    if (isNotFound(task.error)) {
      return <NotFound what="Task" id={id} back={{ to: '/tasks', label: 'All tasks' }} />;
    }
    return <ErrorNote error={task.error} />;
  }
  const data = task.data;
  const stages = flow.data.stages;
  const current = stageOf(data, flow.data);
  const reading = viewed !== null && viewed.state === data.state && viewed.stage < current;
  const shown = reading ? viewed.stage : current;
  const currentStage = stages[current] ?? stages[0] ?? { number: '', title: '', key: '' };
  const ShownView = stageViews[stages[shown]?.key ?? ''];

  return (
    <div className="page">
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to="/tasks">Tasks</Link> /{' '}
        {project.data ? <Link to={`/projects/${project.data.id}`}>{project.data.name}</Link> : '…'} /{' '}
        <span className="crumb-current">{data.description.split('\n')[0]}</span>
      </nav>
      <TaskHeader task={data} />
      <ol className="stepper" aria-label="Stages">
        {stages.map((stage, index) => {
          const state =
            index < current || data.state === 'DONE' ? 'done' : index === current ? 'current' : 'todo';
          return (
            <li key={stage.number} className={`step step-${state} ${index === shown ? 'shown' : ''}`}>
              <button
                type="button"
                disabled={index > current}
                aria-current={index === current ? 'step' : undefined}
                onClick={() => setViewed(index < current ? { stage: index, state: data.state } : null)}
              >
                <span className="step-number">{stage.number}</span>
                <span className="step-name">{stage.title}</span>
              </button>
            </li>
          );
        })}
      </ol>
      {reading ? (
        <div className="reading-earlier" role="status">
          <span>
            You are reading an earlier stage; the task is at {currentStage.number} {currentStage.title}.
          </span>
          <button type="button" className="button-primary" onClick={() => setViewed(null)}>
            Back to the current stage ({currentStage.number} {currentStage.title})
          </button>
        </div>
      ) : null}
      {ShownView ? (
        <ShownView task={data} />
      ) : (
        <section className="card" role="status">
          This version of the workbench page has no view for stage {stages[shown]?.number}{' '}
          {stages[shown]?.title} yet; its actions are in the API (see API docs).
        </section>
      )}
      {data.workspaces.length > 0 && project.data ? (
        <PreviewPanel task={data} project={project.data} />
      ) : null}
    </div>
  );
}
