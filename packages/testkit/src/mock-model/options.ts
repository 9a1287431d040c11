import { z } from 'zod';
import { TestkitError } from '../errors.ts';
import { type ChatProfile, chatProfiles, mockProfileNames } from './profiles.ts';
import { parseScript } from './script-schema.ts';
import type { MockModelOptions, ScriptedReply } from './types.ts';

const optionsSchema = z.strictObject({
  script: z.array(z.unknown()).optional(),
  models: z.array(z.string().min(1)).min(1).optional(),
  chunkSize: z.number().int().positive().optional(),
  port: z.number().int().min(0).max(65535).optional(),
  profile: z.enum(mockProfileNames).optional(),
});

export type ResolvedOptions = {
  script: ScriptedReply[];
  models: string[];
  chunkSize: number;
  port: number;
  /** Undefined for OpenAI's own wire, which the default code path writes. */
  profile: ChatProfile | undefined;
};

/** Validate `startMockModel` options strictly and apply defaults. */
export function resolveOptions(options: MockModelOptions): ResolvedOptions {
  const result = optionsSchema.safeParse(options);
  if (!result.success) {
    throw new TestkitError(
      'INVALID_OPTIONS',
      `Invalid startMockModel options:\n${z.prettifyError(result.error)}`,
    );
  }
  return {
    script: parseScript(result.data.script ?? []),
    models: result.data.models ?? ['mock-model'],
    chunkSize: result.data.chunkSize ?? 8,
    port: result.data.port ?? 0,
    profile:
      result.data.profile === undefined || result.data.profile === 'openai'
        ? undefined
        : chatProfiles[result.data.profile],
  };
}
