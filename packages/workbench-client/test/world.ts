import type { ScriptedReply } from '@keel/testkit';
import { expect } from 'vitest';
import { eventually, knowledgeScript } from '../../workbench/test/harness.ts';
import type { WorkbenchClient } from '../src/index.ts';

/** Gives up a wait that should have ended long before (never a sleep: the waits are event-driven). */
export const patience = () => AbortSignal.timeout(60_000);

/** A promise the test resolves when it wants: holds a scripted model reply open (`until`). */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** The plan reply: long enough to stream many `text_delta` events (8 characters each). */
export const planText = `# Plan\n\n${Array.from({ length: 30 }, (_, i) => `- step ${i + 1}: do it well`).join('\n')}`;

/** Knowledge of one repository, then a plan and a two-item todo list (the plan held by `planGate`). */
export function planningReplies(planGate?: Promise<unknown>): ScriptedReply[] {
  return [
    ...knowledgeScript(1),
    {
      when: { lastMessageIncludes: 'Write the technical plan' },
      text: planText,
      ...(planGate ? { until: planGate } : {}),
    },
    { when: { lastMessageIncludes: 'Mention the tests' }, text: '# Plan v2\n\nWith tests.' },
    {
      when: { lastMessageIncludes: 'Break it into an ordered list of todos' },
      text: JSON.stringify([
        { title: 'Greeting module', description: 'Create src/greeting.js', expected_output: 'a module' },
        { title: 'Use it', description: 'Import it in src/app.js', expected_output: 'app greets' },
      ]),
    },
  ];
}

/** Waits, through the client, for every knowledge layer's session to end and the project to be READY. */
export async function projectReady(client: WorkbenchClient, projectId: string) {
  const knowledge = await client.projects.knowledge(projectId);
  for (const layer of knowledge.layers) {
    if (layer.session_id) await client.sessions.waitFor(layer.session_id, undefined, { signal: patience() });
  }
  // The project's status is written as its last layer ends: read it until it says so.
  return eventually(async () => {
    const project = await client.projects.get(projectId);
    return project.status === 'READY' && project;
  }, 'project READY');
}

/** A READY project and a task initialized and confirmed: answers the task in PLANNING. */
export async function taskInPlanning(client: WorkbenchClient, repository: string) {
  const project = await client.projects.create({
    name: 'Greeter',
    repositories: [{ path: repository, type: 'frontend' }],
  });
  await projectReady(client, project.id);
  const task = await client.tasks.create({ project_id: project.id, description: 'Add a greeting' });
  await client.tasks.waitFor(task.id, (view) => view.init.status === 'done', { signal: patience() });
  const planning = await client.tasks.confirmInit(task.id);
  expect(planning.state).toBe('PLANNING');
  return planning;
}
