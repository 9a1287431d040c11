import type { SubAgent } from './agent-record.ts';

const maxOutputChars = 20_000;

/**
 * The user message a sub-agent's run starts from: its task and, when it resumes an earlier run, how that
 * run ended (its output or its error), so the new run continues from there rather than from nothing.
 */
export function taskPrompt(task: string, previous?: SubAgent): string {
  if (!previous) return task;
  const ended = {
    completed: 'completed',
    failed: 'failed',
    timeout: 'ran out of time',
    killed: 'was killed',
    pending: 'did not start',
    running: 'did not finish',
  }[previous.status];
  const lines = [
    `Your task: ${task}`,
    '',
    `You worked on this task before and that attempt ${ended}.`,
    ...(previous.error ? ['', `Previous error: ${previous.error}`] : []),
    ...(previous.output ? ['', 'Previous output:', clip(previous.output)] : []),
    '',
    previous.status === 'completed'
      ? 'Continue the task from that result: check it, finish what is missing, and answer in full.'
      : 'Continue the task from where it stopped, avoiding what went wrong, and answer in full.',
  ];
  return lines.join('\n');
}

function clip(text: string): string {
  return text.length > maxOutputChars ? `${text.slice(0, maxOutputChars)}\n[… output clipped]` : text;
}
