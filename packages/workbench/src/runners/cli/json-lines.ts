import type { RunnerErrorObject } from '../contract.ts';

export type ParsedLine =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; error: RunnerErrorObject };

const previewChars = 200;

/**
 * One line of an agent's JSON-lines output: the object, or an error naming the line. Only objects count:
 * every agent's events are objects, so a bare number or string is as much a broken line as bad JSON.
 * Blank lines (some agents end with one) are `undefined`.
 */
export function parseJsonLine(line: string, lineNumber: number): ParsedLine | undefined {
  const text = line.trim();
  if (!text) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return invalid(text, lineNumber, (error as Error).message);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return invalid(text, lineNumber, 'not a JSON object');
  }
  return { ok: true, value: value as Record<string, unknown> };
}

function invalid(text: string, lineNumber: number, reason: string): ParsedLine {
  const preview = text.length > previewChars ? `${text.slice(0, previewChars)}…` : text;
  return {
    ok: false,
    error: {
      code: 'RUNNER_OUTPUT_INVALID',
      message: `The agent printed a line that is not a JSON event (line ${lineNumber}: ${reason}): ${preview}`,
      details: { line: lineNumber, preview, reason },
    },
  };
}

/** Small readers for the loosely typed JSON events: a wrong type reads as absent, never as a crash. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function obj(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A tool's result as text: strings as they are, anything else as JSON. */
export function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    // Content-block arrays ([{type: 'text', text}]) read as their text.
    const texts = value.map((part) => str(obj(part)?.text)).filter((text) => text !== undefined);
    if (texts.length === value.length) return texts.join('\n');
  }
  return JSON.stringify(value);
}
