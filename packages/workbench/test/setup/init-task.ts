// A task of a one-repository project, initialised through the real flow: what the setup tests share.
import { expect } from 'vitest';
import { type Api, type Body, eventually } from '../harness.ts';

/** A READY project of `repo` (run_setup turned on first when `runSetup`), and a task whose init ended. */
export async function initializedTask(api: Api, repoDir: string, runSetup: boolean) {
  const project = (
    await api('POST', '/api/projects', { name: 'p', repositories: [{ path: repoDir, type: 'frontend' }] })
  ).body;
  if (runSetup) {
    const on = await api('PUT', `/api/projects/${project.id}`, { run_setup: true });
    expect(on.body.run_setup).toBe(true);
  }
  await eventually(
    async () => (await api('GET', `/api/projects/${project.id}`)).body.status === 'READY',
    'READY',
  );
  const task = (await api('POST', '/api/tasks', { project_id: project.id, description: 'A task' })).body;
  return { project, task: await initEnded(api, task.id) };
}

/** The task once its init is done or failed. */
export async function initEnded(api: Api, taskId: string): Promise<Body> {
  await eventually(
    async () => ['done', 'failed'].includes((await api('GET', `/api/tasks/${taskId}`)).body.init.status),
    'init to end',
    60_000,
  );
  return (await api('GET', `/api/tasks/${taskId}`)).body;
}

export function stepOf(task: Body, name: string): Body {
  return (task.init.steps as Body[]).find((step) => step.name === name);
}
