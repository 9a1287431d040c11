import type { TextToolCall } from './text-tool-calls.ts';
import { repairArguments, scanJson } from './tool-arguments.ts';

const toolCallsToken = '[TOOL_CALLS]';

/**
 * The tool calls after Mistral's first `[TOOL_CALLS]` (content-splitter.ts strips it), as Mistral models
 * write them when the server runs no tool parser and keeps the special tokens in the text. mistral-common's
 * decoder (src/mistral_common/tokens/tokenizers/tools.py) defines the shapes:
 *
 * - tokenizer v2 to v7 (Mistral 7B v0.3, Mixtral 8x22B, Codestral 22B):
 *   `[TOOL_CALLS] [{"name": "n", "arguments": {…}}, …]`, one token before a JSON list;
 * - v11 and later (Mistral Small 3.1+, Devstral, Magistral): `[TOOL_CALLS]n[ARGS]{…}` for each call, or
 *   `[TOOL_CALLS]n[CALL_ID]id[ARGS]{…}`; vLLM's parser (vllm/tool_parsers/mistral_tool_parser.py) also
 *   reads `[TOOL_CALLS]n{…}`, as text looks when `[ARGS]` is dropped as a special token.
 *
 * Only calls to offered tools count; a part that is none stays in the answer as it was written, its token
 * included. Arguments that are not valid JSON are kept for the model to be told what is wrong with them.
 */
export function parseMistralToolCalls(
  text: string,
  toolNames: ReadonlySet<string>,
): { calls: TextToolCall[]; text: string } {
  const calls: TextToolCall[] = [];
  let rest = '';
  for (const part of text.split(toolCallsToken)) {
    const found = part.trimStart().startsWith('[') ? listCalls(part, toolNames) : namedCall(part, toolNames);
    if (found) calls.push(...found);
    else rest += `${toolCallsToken}${part}`;
  }
  return { calls, text: rest };
}

/** `[{"name", "arguments"}, …]` (tokenizer v2 to v7): every entry a call to an offered tool, or none. */
function listCalls(part: string, toolNames: ReadonlySet<string>): TextToolCall[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(repairList(part.trim()));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const calls: TextToolCall[] = [];
  for (const entry of value) {
    if (typeof entry !== 'object' || entry === null) return undefined;
    const { name, arguments: args } = entry as Record<string, unknown>;
    if (typeof name !== 'string' || !toolNames.has(name)) return undefined;
    calls.push({ name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) });
  }
  return calls;
}

/**
 * The list as JSON, without what follows it (vLLM's parser ignores that too). repairArguments repairs
 * objects, so the entries are repaired inside a wrapper object: single quotes, as older Mistral models
 * write them (ollama/ollama#5284), and brackets missing at the end.
 */
function repairList(list: string): string {
  const end = scanJson(list).end;
  const wrapped = repairArguments(`{"list": ${end === undefined ? list : list.slice(0, end)}}`, false);
  try {
    return JSON.stringify((JSON.parse(wrapped) as { list: unknown }).list);
  } catch {
    return list;
  }
}

/** `name[CALL_ID]id[ARGS]{…}`, `name[ARGS]{…}` or `name{…}` (tokenizer v11 and later). */
function namedCall(part: string, toolNames: ReadonlySet<string>): TextToolCall[] | undefined {
  const match = /^\s*([\w.-]+)\s*(?:\[CALL_ID\][^[{]*)?(?:\[ARGS\])?\s*(?=\{)/.exec(part);
  const name = match?.[1];
  if (!match || name === undefined || !toolNames.has(name)) return undefined;
  return [{ name, arguments: part.slice(match[0].length).trim() }];
}
