import type { ChatMessage } from '../model/index.ts';
import type { HistorySplit } from './split-history.ts';

/** The last line of the summary request: what it asks (and what a scripted test model can recognise). */
export const summaryRequestEnd = 'Summarise the conversation above so the agent can continue the task.';

/** Per message, at most this much goes into the summary request, which must itself fit the window. */
const maxMessageChars = 4000;
const maxArgumentChars = 1000;

/** The instructions of the summary request: what a summary must keep for the agent to carry on. */
export function summaryInstructions(maxTokens: number): string {
  return [
    "You summarise a coding agent's work so far, so that it can continue the same task with a shorter",
    'history. The agent will see its system prompt, the task, your summary and its most recent turns;',
    'everything else is replaced by your summary. Keep:',
    '1. The task and every requirement, constraint or preference the user stated.',
    '2. The decisions made and why, including approaches tried and rejected.',
    '3. Every file read, created, edited or deleted (exact paths), and what changed in it.',
    '4. Commands run and the results that matter: errors, failing tests, outputs relied on.',
    '5. What is done, what remains, and the next step.',
    'Keep exact names, paths, identifiers and error messages. Do not invent anything, and do not call',
    `tools. Answer with the summary only, in at most about ${maxTokens} tokens.`,
  ].join('\n');
}

/** The conversation to summarise as one text: a request of its own, free of tool-call pairing rules. */
export function summaryTranscript(split: HistorySplit): string {
  const names = new Map<string, string>();
  const lines = [
    '# The task',
    clip(split.task.content, maxMessageChars * 2),
    '',
    '# The conversation so far',
  ];
  for (const message of split.older) lines.push(...render(message, names));
  lines.push('', summaryRequestEnd);
  return lines.join('\n');
}

function render(message: ChatMessage, names: Map<string, string>): string[] {
  switch (message.role) {
    case 'system':
      return [`[system] ${clip(message.content, maxMessageChars)}`];
    case 'user': {
      const images = message.images?.length ? ` [${message.images.length} image(s) attached]` : '';
      return [`[user] ${clip(message.content, maxMessageChars)}${images}`];
    }
    case 'assistant': {
      const lines = message.content.trim() ? [`[assistant] ${clip(message.content, maxMessageChars)}`] : [];
      for (const call of message.tool_calls ?? []) {
        names.set(call.id, call.name);
        lines.push(`[assistant called ${call.name}] ${clip(call.arguments, maxArgumentChars)}`);
      }
      return lines;
    }
    case 'tool':
      return [
        `[result of ${names.get(message.tool_call_id) ?? 'a tool'}] ${clip(message.content, maxMessageChars)}`,
      ];
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)} […${text.length - max} more characters]` : text;
}
