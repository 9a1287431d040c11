import type { ReviewFinding, Task, Todo } from '../../types.ts';

/** The reviewer's one question: what is wrong with this change, as findings. */
export function reviewPrompt(input: {
  task: Task;
  plan: string;
  todos: Todo[];
  summary: string;
  patch: string;
  /** Findings the user dismissed in earlier rounds. */
  dismissed?: readonly ReviewFinding[];
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
    ...dismissedPart(input.dismissed ?? []),
  ].join('\n');
}

/** The findings the user dismissed: not to be reported again unless the change made them worse. */
function dismissedPart(dismissed: readonly ReviewFinding[]): string[] {
  if (dismissed.length === 0) return [];
  return [
    '',
    '## Dismissed by the user in an earlier round',
    'The user read these and chose not to act on them. Do not report them again, unless the change made one worse:',
    ...dismissed.map(
      (finding) =>
        `- [${finding.severity}] ${[finding.repository, finding.file].filter(Boolean).join('/') || '(general)'}${finding.line ? `:${finding.line}` : ''}: ${finding.message}`,
    ),
  ];
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
