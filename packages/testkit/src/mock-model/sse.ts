/** One server-sent event with a name, as the Responses and Anthropic streams send them. */
export const sseEvent = (event: string, data: object): string =>
  `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** A JSON object check for request bodies and items. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
