import { z } from 'zod';
import { WorkbenchError } from '../../../errors.ts';

const itemSchema = z.looseObject({
  title: z.string().trim().min(1),
  description: z.string().optional(),
  expected_output: z.string().optional(),
  expectedOutput: z.string().optional(),
});

export interface TodoItem {
  title: string;
  description: string;
  expected_output: string;
}

/**
 * Reads the model's todo list tolerantly: the first ```json fence (or any fence holding an array), else
 * the outermost bare array; `{todos: [...]}` is accepted too. Items need a title; the rest defaults to ''.
 */
export function parseTodoList(text: string): TodoItem[] {
  const candidates: string[] = [];
  for (const match of text.matchAll(/```(?:json|JSON)?\s*\n([\s\S]*?)```/g)) candidates.push(match[1] ?? '');
  const start = text.indexOf('[');
  const end = text.lastIndexOf(']');
  if (start !== -1 && end > start) candidates.push(text.slice(start, end + 1));
  const brace = text.indexOf('{');
  const braceEnd = text.lastIndexOf('}');
  if (brace !== -1 && braceEnd > brace) candidates.push(text.slice(brace, braceEnd + 1));
  for (const candidate of candidates) {
    let value: unknown;
    try {
      value = JSON.parse(candidate.trim());
    } catch {
      continue;
    }
    if (
      value &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      Array.isArray((value as { todos?: unknown }).todos)
    ) {
      value = (value as { todos: unknown[] }).todos;
    }
    const parsed = z.array(itemSchema).min(1).safeParse(value);
    if (parsed.success) {
      return parsed.data.map((item) => ({
        title: item.title,
        description: item.description ?? '',
        expected_output: item.expected_output ?? item.expectedOutput ?? '',
      }));
    }
  }
  throw new WorkbenchError(
    'TODO_PARSE_FAILED',
    'The answer holds no todo list: expected a JSON array of {title, description, expected_output} (in a ```json fence or bare). Retry with POST /api/tasks/{id}/todo.',
  );
}
