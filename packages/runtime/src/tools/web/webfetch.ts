import { z } from 'zod';
import { ToolError } from '../../errors/index.ts';
import { defineTool } from '../tool.ts';
import { HostPolicy } from './host-policy.ts';
import { httpGet, parseWebUrl } from './http-get.ts';
import { pageContent } from './page-content.ts';
import { fetchLimits, maxWebOutputChars } from './web-settings.ts';

const schema = z.object({
  url: z
    .string()
    .describe('The absolute http:// or https:// URL of the page, e.g. https://example.com/docs.'),
});

/**
 * Fetches a page as Markdown (HTML's main content), JSON (pretty-printed) or text, within the host policy
 * and limits of config `web` (see HostPolicy and httpGet).
 */
export const webfetchTool = defineTool({
  name: 'webfetch',
  traits: { kind: 'fetch', readOnly: true, network: true },
  description:
    'Fetches a web page and returns its main content as Markdown (links kept); JSON is pretty-printed and ' +
    `plain text returned as it is. Other content (images, PDFs, archives) is refused. Output is cut at ` +
    `${maxWebOutputChars} characters. Use it to read documentation, issues or API answers the user points ` +
    'to or that websearch found.',
  schema,
  async execute(ctx, args) {
    const url = parseWebUrl(args.url);
    const config = ctx.web?.config;
    const response = await httpGet(url, {
      ...fetchLimits(config),
      signal: ctx.signal,
      policy: new HostPolicy(config),
      headers: {
        accept: 'text/html,application/xhtml+xml,application/json;q=0.9,text/plain;q=0.8,*/*;q=0.5',
      },
    });
    if (response.status >= 400) {
      throw new ToolError(
        `${response.url.href} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}` +
          excerpt(response.body),
        { url: response.url.href, status: response.status },
      );
    }
    return pageContent(response);
  },
});

/** The start of an error page, when it is text, so the model sees why. */
function excerpt(body: Buffer): string {
  if (body.length === 0 || body.includes(0)) return '.';
  // Error pages are often HTML: their text is what says why.
  const text = body
    .toString('utf8')
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? '.' : `: ${text.length > 500 ? `${text.slice(0, 500)}…` : text}`;
}
