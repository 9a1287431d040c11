import type { PrdDocument } from './prd-links.ts';
import type { Task, Todo, Workspace } from './types.ts';

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

export function planPrompt(
  task: Task,
  documents: PrdDocument[],
  projectMd: string,
  imageCount: number,
): string {
  const parts = [
    'Write the technical plan for this task as Markdown: goal, the changes per repository (files and why),',
    'risks, and how to verify. Answer with the plan only; it is saved to plan.md.',
    '',
    '## Task',
    task.description,
  ];
  if (documents.length > 0) {
    parts.push('', '## PRD documents');
    for (const document of documents) {
      parts.push(
        '',
        `### ${document.url}`,
        document.ok ? document.text : `(could not be read: ${document.text})`,
      );
    }
  }
  if (imageCount > 0) parts.push('', `${imageCount} image(s) of the requirement are attached.`);
  parts.push('', '## Project knowledge (project.md)', projectMd.trim());
  return parts.join('\n');
}

export function planRefinePrompt(message: string | undefined, editedByHand?: string): string {
  return [
    message ?? 'Review the plan and improve it.',
    '',
    ...(editedByHand
      ? [
          'The user edited plan.md by hand since your last answer. Start from their version and keep their changes:',
          '',
          editedByHand.trim(),
          '',
        ]
      : []),
    'Answer with the complete revised plan as Markdown (it replaces plan.md).',
  ].join('\n');
}

const todoFormat =
  'Answer with the list only, as a JSON array in a ```json fence: [{"title": "...", "description": "...", "expected_output": "..."}]. ' +
  'Order them so each can be done after the previous ones; each must be small enough for one focused session.';

export function todoPrompt(plan: string): string {
  return [
    'The plan is locked. Break it into an ordered list of todos.',
    todoFormat,
    '',
    '## plan.md',
    plan.trim(),
  ].join('\n');
}

export function todoAdjustPrompt(
  message: string,
  current: { title: string; description: string; expected_output: string }[] = [],
): string {
  const list = current.map(({ title, description, expected_output }) => ({
    title,
    description,
    expected_output,
  }));
  return [
    `Adjust the todo list: ${message}`,
    'Answer with the complete adjusted list.',
    todoFormat,
    ...(list.length
      ? ['', 'The list as it is now (the user may have edited it by hand):', JSON.stringify(list, null, 2)]
      : []),
  ].join('\n');
}

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

/** The reviewer's one question: what is wrong with this change, as findings. */
export function reviewPrompt(input: {
  task: Task;
  plan: string;
  todos: Todo[];
  summary: string;
  patch: string;
}): string {
  const todos = input.todos.map((todo) => {
    const checks = (todo.checks ?? [])
      .map((check) => `${check.repository}: ${check.name} ${check.passed ? 'passed' : 'FAILED'}`)
      .join('; ');
    return `${todo.position}. [${todo.status}] ${todo.title}${checks ? ` (checks: ${checks})` : ''}`;
  });
  return [
    'Review this change before it becomes a merge request. Look for bugs, missing pieces of the plan,',
    'broken or missing tests, security problems and code that does not fit the repository. You may read the',
    'files in the repository folders; do not change them. Report only real problems, most serious first.',
    'Answer with the findings only, as a JSON array in a ```json fence (an empty array when the change is good):',
    '[{"severity": "error" | "warning" | "info", "repository": "<folder>", "file": "<path in it>", "line": <number or null>, "message": "<what is wrong and what to do>"}]',
    '',
    `## Task\n${input.task.description}`,
    '',
    `## plan.md\n${input.plan.trim() || '(none)'}`,
    '',
    `## Todos\n${todos.join('\n') || '(none)'}`,
    '',
    '## Changed files',
    input.summary,
    '',
    '## Diff',
    input.patch,
  ].join('\n');
}

export function commitMessagePrompt(task: Task, summary: string, patch: string): string {
  return [
    'Write the commit message for these changes: a subject line of at most 72 characters, a blank line, then',
    'a body that says what changed and why, wrapped at 72 columns. Answer with the message only.',
    '',
    `Task: ${task.description}`,
    '',
    '## Changed files',
    summary,
    '',
    '## Diff',
    patch,
  ].join('\n');
}

export function commitMessageAdjustPrompt(message: string, current?: string | null): string {
  return [
    `Adjust the commit message: ${message}`,
    'Answer with the complete message only.',
    ...(current ? ['', 'The message as it is now (the user may have edited it by hand):', current] : []),
  ].join('\n');
}

/** The model's answer as a plain commit message: an enclosing code fence removed. */
export function cleanCommitMessage(output: string): string {
  const fenced = /^```[a-z]*\n([\s\S]*?)\n```$/i.exec(output.trim());
  return (fenced?.[1] ?? output).trim();
}
