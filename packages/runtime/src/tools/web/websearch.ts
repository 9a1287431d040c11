import { z } from 'zod';
import { ToolError } from '../../errors/index.ts';
import { defineTool } from '../tool.ts';
import { httpGet } from './http-get.ts';
import { type SearchResult, searchProvider } from './search-providers.ts';
import { fetchLimits } from './web-settings.ts';

/** Results shown when the call does not say. */
export const defaultSearchResults = 5;
/** Most results one call may ask for (Brave's API answers at most 20 a page). */
export const maxSearchResults = 20;

const schema = z.object({
  query: z
    .string()
    .trim()
    .min(1)
    .describe('What to search the web for, as you would type it into a search engine.'),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(maxSearchResults)
    .optional()
    .describe(`How many results to return (default ${defaultSearchResults}, at most ${maxSearchResults}).`),
});

/**
 * Searches the web with the provider of config `web.search` (SearXNG or the Brave Search API) and lists
 * title, URL and snippet of each result. The provider's address is the user's own setting, so the host
 * policy of webfetch does not apply to it; the time and size limits do.
 */
export const websearchTool = defineTool({
  name: 'websearch',
  traits: { kind: 'fetch', readOnly: true, network: true },
  description:
    'Searches the web and returns the top results, each with title, URL and snippet. Read a result in full ' +
    'with webfetch.',
  schema,
  async execute(ctx, args) {
    const provider = searchProvider(ctx.web);
    const count = args.max_results ?? defaultSearchResults;
    const { url, headers } = provider.request(args.query, count);
    const response = await httpGet(url, { ...fetchLimits(ctx.web?.config), signal: ctx.signal, headers });
    if (response.status >= 400) {
      throw new ToolError(
        `${provider.name} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''} ` +
          `to the search.${provider.hint(response.status)}`,
        { provider: provider.name, status: response.status },
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(response.body.toString('utf8'));
    } catch {
      throw new ToolError(`${provider.name} answered with something that is not JSON (${url.origin}).`, {
        provider: provider.name,
      });
    }
    const results = provider.results(json);
    if (results === undefined) {
      throw new ToolError(`${provider.name} answered JSON without the list of results it should have.`, {
        provider: provider.name,
      });
    }
    return formatResults(args.query, provider.name, results.slice(0, count));
  },
});

function formatResults(query: string, provider: string, results: SearchResult[]): string {
  if (results.length === 0) return `No results for "${query}" (${provider}).`;
  const lines = results.map((result, index) =>
    [
      `${index + 1}. ${result.title || result.url}`,
      `   ${result.url}`,
      ...(result.snippet ? [`   ${oneLine(result.snippet)}`] : []),
    ].join('\n'),
  );
  return `Results for "${query}" (${provider}):\n\n${lines.join('\n\n')}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
