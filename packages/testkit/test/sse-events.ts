// Raw SSE parsing for the Anthropic and Gemini wire tests (no SDK for either is installed).

/** One server-sent event: its `event:` name (if any) and its parsed `data:` JSON. */
export type SseEvent = { event: string | undefined; data: Record<string, unknown> };

/** Split an SSE body into events (blank-line separated, `\n` or `\r\n`) and parse each `data:` as JSON. */
export async function readEvents(response: Response): Promise<SseEvent[]> {
  const text = await response.text();
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split(/\r?\n/);
      const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length);
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice('data: '.length))
        .join('\n');
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}

/** POST JSON to a path under the server's root. */
export function postJson(baseUrl: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}
