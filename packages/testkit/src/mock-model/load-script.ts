import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { TestkitError } from '../errors.ts';
import { parseScript } from './script-schema.ts';
import type { ScriptedReply } from './types.ts';

/** What a script file holds once loaded. */
export type ScriptFile = { replies: ScriptedReply[]; models?: string[] };

const fileObjectSchema = z.strictObject({
  replies: z.array(z.unknown()),
  models: z.array(z.string().min(1)).min(1).optional(),
});

/**
 * Parse a script file's JSON value: an array of replies, or `{ "replies": [...], "models": [...] }`.
 * @example parseScriptFile([{ text: 'Hello' }])
 */
export function parseScriptFile(value: unknown, source = 'script file'): ScriptFile {
  if (Array.isArray(value)) return { replies: parseScript(value, source) };
  const result = fileObjectSchema.safeParse(value);
  if (!result.success) {
    throw new TestkitError(
      'INVALID_SCRIPT',
      `Invalid mock model ${source}: expected an array of replies or { "replies": [...], "models": [...] }.\n${z.prettifyError(result.error)}`,
    );
  }
  const replies = parseScript(result.data.replies, source);
  return result.data.models ? { replies, models: result.data.models } : { replies };
}

/** Read and validate a JSON script file. */
export async function loadScriptFile(path: string): Promise<ScriptFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new TestkitError('INVALID_SCRIPT', `Cannot read mock model script file ${path}: ${String(cause)}`, {
      cause,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new TestkitError(
      'INVALID_SCRIPT',
      `Mock model script file ${path} is not valid JSON: ${String(cause)}`,
      {
        cause,
      },
    );
  }
  return parseScriptFile(value, `script file ${path}`);
}
