import type { Task } from './types.ts';

/** Standing instructions of every task session: where things are and the rules. */
export function taskInstructions(task: Task, constitution: string): string {
  return [
    'You work in a task directory holding one folder per repository (each a git checkout on the task branch),',
    'plus project.md (project knowledge), constitution.md (rules), plan.md and todo.json once they exist,',
    'and .skills/ (skills linked to the project: read the SKILL.md that fits).',
    `Repositories: ${task.workspaces.map((workspace) => `${workspace.repository}/`).join(', ') || '(not cloned yet)'}.`,
    'Never run git commit, push or checkout: the workbench commits and pushes at the end.',
    '',
    constitution.trim(),
  ].join('\n');
}
