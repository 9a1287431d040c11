import { repairArguments } from './tool-arguments.ts';

/** A tool call a model wrote as text: its name and its arguments' JSON text (possibly malformed). */
export type TextToolCall = { name: string; arguments: string };

/**
 * The tool call inside a `<tool_call>` block: `{"name": …, "arguments": {…}}` as Hermes and Qwen models
 * write it (`parameters` as Llama 3.1 does). Only a call to one of the offered tools counts: anything
 * else was the model's text. Arguments that are not valid JSON are kept as written, so the model is told
 * what is wrong with them instead of its call vanishing.
 */
export function parseTextToolCall(block: string, toolNames: ReadonlySet<string>): TextToolCall | undefined {
  const text = repairArguments(block.trim(), false);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return malformedCall(text, toolNames);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { name, arguments: args, parameters } = value as Record<string, unknown>;
  if (typeof name !== 'string' || !toolNames.has(name)) return undefined;
  const given = args ?? parameters ?? {};
  return { name, arguments: typeof given === 'string' ? given : JSON.stringify(given) };
}

/** A call whose name can be read though its JSON is broken: the arguments' text as the model wrote it. */
function malformedCall(text: string, toolNames: ReadonlySet<string>): TextToolCall | undefined {
  const name = /"name"\s*:\s*"([^"]+)"/.exec(text)?.[1];
  if (name === undefined || !toolNames.has(name)) return undefined;
  const start = /"(?:arguments|parameters)"\s*:\s*/.exec(text);
  if (!start) return { name, arguments: '' };
  const rest = text.slice(start.index + start[0].length).trim();
  // The block's own closing brace is not part of the arguments.
  return { name, arguments: rest.endsWith('}}') ? rest.slice(0, -1) : rest };
}
