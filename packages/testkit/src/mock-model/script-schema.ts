import { z } from 'zod';
import { TestkitError } from '../errors.ts';
import type { ScriptedReply } from './types.ts';

const toolCallSchema = z.strictObject({
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  arguments: z.union([z.string(), z.record(z.string(), z.unknown())]),
});

const bodyKeys = ['text', 'reasoning', 'toolCalls'] as const;

/** Strict schema of one scripted reply: typos in a script are errors, not silently ignored fields. */
export const scriptedReplySchema: z.ZodType<ScriptedReply> = z
  .strictObject({
    when: z
      .strictObject({
        lastMessageIncludes: z.string().optional(),
        lastRole: z.enum(['user', 'assistant', 'tool', 'system']).optional(),
      })
      .optional(),
    repeat: z.boolean().optional(),
    delayMs: z.number().int().nonnegative().optional(),
    // Only a script built in process can hold a promise; a script file never does.
    until: z.custom<Promise<unknown>>((value) => value instanceof Promise, 'a Promise').optional(),
    chunkDelayMs: z.number().int().nonnegative().optional(),
    text: z.string().optional(),
    reasoning: z.string().optional(),
    toolCalls: z.array(toolCallSchema).min(1).optional(),
    usage: z
      .strictObject({
        prompt_tokens: z.number().int().nonnegative(),
        completion_tokens: z.number().int().nonnegative(),
      })
      .optional(),
    omitUsage: z.boolean().optional(),
    error: z
      .strictObject({
        status: z.number().int().min(400).max(599),
        message: z.string().optional(),
        retryAfterSeconds: z.number().nonnegative().optional(),
      })
      .optional(),
    drop: z.enum(['before-response', 'mid-stream']).optional(),
    finishReason: z.string().min(1).optional(),
  })
  .superRefine((reply, ctx) => {
    const hasBody = bodyKeys.some((key) => reply[key] !== undefined);
    if (reply.error && (hasBody || reply.drop)) {
      ctx.addIssue({
        code: 'custom',
        message: '`error` cannot be combined with text, reasoning, toolCalls or drop',
      });
    }
    if (!hasBody && !reply.error && !reply.drop) {
      ctx.addIssue({ code: 'custom', message: 'a reply needs text, reasoning, toolCalls, error or drop' });
    }
  });

export const scriptSchema = z.array(scriptedReplySchema);

/** Validate replies, throwing a TestkitError that names the bad reply and field. */
export function parseScript(replies: unknown, source = 'script'): ScriptedReply[] {
  const result = scriptSchema.safeParse(replies);
  if (result.success) return result.data;
  throw new TestkitError(
    'INVALID_SCRIPT',
    `Invalid mock model ${source}:\n${z.prettifyError(result.error)}`,
    {
      details: result.error.issues,
    },
  );
}
