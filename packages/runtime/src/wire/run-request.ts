import { z } from 'zod';

/** An image as a request carries it: base64 without a `data:` prefix. */
export const imagePayloadSchema = z.strictObject({
  data: z.base64('data must be base64 (no data: prefix)').min(1),
  media_type: z
    .string()
    .regex(/^image\/[\w.+-]+$/, 'media_type must be an image MIME type such as image/png'),
  filename: z.string().optional(),
});

/**
 * The run request of spec section 2, shared by the SDK, `POST /run`, `POST /run/stream` and
 * `POST /runtime/runs`.
 */
export const runRequestSchema = z
  .strictObject({
    prompt: z.string().trim().min(1, 'prompt must not be empty'),
    workdir: z.string().min(1).optional(),
    allowed_roots: z.array(z.string().min(1)).optional(),
    model: z.string().min(1).optional(),
    model_base_url: z.url().optional(),
    model_api_key: z.string().min(1).optional(),
    enable_thinking: z.boolean().optional(),
    thinking_budget: z.number().int().positive().optional(),
    skills: z.array(z.string()).optional(),
    session_id: z.string().min(1).optional(),
    images: z.array(imagePayloadSchema).optional(),
    max_tokens: z.number().int().nonnegative().optional(),
    max_cost_usd: z.number().nonnegative().optional(),
    max_steps: z.number().int().nonnegative().optional(),
    include_tools: z.array(z.string()).optional(),
    exclude_tools: z.array(z.string()).optional(),
    stream: z.boolean().optional(),
  })
  .refine((request) => !(request.include_tools && request.exclude_tools), {
    message: 'include_tools and exclude_tools are mutually exclusive',
    path: ['include_tools'],
  });

export type RunRequest = z.input<typeof runRequestSchema>;
export type ParsedRunRequest = z.output<typeof runRequestSchema>;
