/** At most this many characters of each PRD document reach the prompt. */
export const maxPrdChars = 50_000;
const maxBytes = 2 * 1024 * 1024;
const timeoutMs = 15_000;

export interface PrdDocument {
  url: string;
  ok: boolean;
  /** The document as text (HTML reduced to its text), or why it could not be read. */
  text: string;
}

/**
 * Fetches the task's PRD links with the injectable fetch: bounded in time and size, text, Markdown and
 * JSON as they are, HTML as its text. A link that fails is reported in the prompt, not a failed plan.
 */
export async function fetchPrdDocuments(links: string[], doFetch: typeof fetch): Promise<PrdDocument[]> {
  return Promise.all(links.map((url) => fetchOne(url, doFetch)));
}

async function fetchOne(url: string, doFetch: typeof fetch): Promise<PrdDocument> {
  try {
    const response = await doFetch(url, {
      headers: { accept: 'text/markdown, text/plain, text/html;q=0.9, application/json;q=0.8, */*;q=0.1' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) return { url, ok: false, text: `HTTP ${response.status}` };
    const type = (response.headers.get('content-type') ?? 'text/plain').toLowerCase();
    if (!/^(text\/|application\/(json|xml|xhtml))/.test(type)) {
      return { url, ok: false, text: `not a text document (${type})` };
    }
    const body = await readBounded(response);
    const text = type.includes('html') ? htmlToText(body) : body;
    return {
      url,
      ok: true,
      text: text.length > maxPrdChars ? `${text.slice(0, maxPrdChars)}\n[… cut]` : text,
    };
  } catch (error) {
    return { url, ok: false, text: (error as Error).message };
  }
}

async function readBounded(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= maxBytes) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A plain reading of HTML: scripts and styles dropped, block ends as line breaks, entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|noscript)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr|section|article|pre)>/gi, '\n')
    .replace(/<li[^>]*>/gi, '- ')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
