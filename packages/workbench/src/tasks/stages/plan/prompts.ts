import type { PrdDocument } from '../../prd-links.ts';
import type { Task } from '../../types.ts';

/** Stage 02's first draft of plan.md. */
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
