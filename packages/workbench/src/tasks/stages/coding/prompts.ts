import type { Todo, Workspace } from '../../types.ts';

/** One todo's turn in its own session. */
export function codingPrompt(todo: Todo, total: number, workspaces: Workspace[]): string {
  return [
    `Do todo ${todo.position} of ${total}: ${todo.title}`,
    '',
    todo.description,
    '',
    `Expected output: ${todo.expected_output || '(as described)'}`,
    '',
    `Edit the files in the repository folders (${workspaces.map((workspace) => `${workspace.repository}/`).join(', ')}).`,
    'plan.md has the whole plan; do only this todo. End with a short summary of what you changed.',
  ].join('\n');
}
