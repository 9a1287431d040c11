import { ToolError } from '../../errors/index.ts';
import { htmlToMarkdown } from './html-to-markdown.ts';
import type { HttpGetResponse } from './http-get.ts';
import { maxWebOutputChars } from './web-settings.ts';

type Kind = 'html' | 'json' | 'text';

// Text that is not HTML or JSON but reads fine as it is: source, data and feed formats.
const textTypes = new Set([
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'application/xml',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/x-sh',
  'application/sql',
  'application/graphql',
]);

/**
 * What webfetch answers for a response: a header (URL, type, title) and the page as Markdown (HTML), JSON
 * pretty-printed, or text as it is, cut at 30 000 characters with a note. Other types are refused.
 */
export async function pageContent(response: HttpGetResponse): Promise<string> {
  const mediaType = response.contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const kind = kindOf(mediaType, response.body);
  if (kind === undefined) {
    throw new ToolError(
      `Cannot show ${response.url.href}: ${mediaType ? `its content type is ${mediaType}` : 'it is binary'}. ` +
        'webfetch reads HTML (as Markdown), JSON and text only.',
      { url: response.url.href, content_type: mediaType },
    );
  }
  const text = decode(response.body, response.contentType);
  const header = [`URL: ${response.url.href}`, `Content-Type: ${mediaType || '(none)'}`];
  let body: string;
  if (kind === 'html') {
    const page = await htmlToMarkdown(text, response.url);
    if (page.title) header.push(`Title: ${page.title}`);
    body = page.markdown;
  } else if (kind === 'json') {
    body = prettyJson(text);
  } else {
    body = text;
  }
  if (body.trim() === '') body = '(The page has no text content.)';
  return `${header.join('\n')}\n\n${cut(body)}`;
}

function kindOf(mediaType: string, body: Buffer): Kind | undefined {
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') return 'html';
  if (mediaType === 'application/json' || mediaType === 'text/json' || mediaType.endsWith('+json')) {
    return 'json';
  }
  if (mediaType.startsWith('text/') || mediaType.endsWith('+xml') || textTypes.has(mediaType)) return 'text';
  if (mediaType !== '') return undefined;
  // No type given: judge by the bytes.
  if (body.includes(0)) return undefined;
  const start = body.subarray(0, 512).toString('utf8').trimStart().toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html')) return 'html';
  return 'text';
}

/** The body in the charset the Content-Type names (UTF-8 when none, or one Node does not know). */
function decode(body: Buffer, contentType: string | undefined): string {
  const charset = /;\s*charset="?([^";\s]+)"?/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

// JSON that does not parse is shown as it came.
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function cut(body: string): string {
  if (body.length <= maxWebOutputChars) return body;
  return (
    `${body.slice(0, maxWebOutputChars)}\n\n(Cut at ${maxWebOutputChars} of ${body.length} characters: ` +
    'the rest of the page is not shown.)'
  );
}
