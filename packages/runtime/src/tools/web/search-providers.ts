import { z } from 'zod';
import { ConfigError } from '../../errors/index.ts';
import { braveDefaultBaseUrl, type WebSettings } from './web-settings.ts';

/** One search hit as websearch shows it. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** A configured search API: how to ask it, and how to read its answer. */
export interface SearchProvider {
  /** Its name in messages. */
  readonly name: string;
  request(query: string, count: number): { url: URL; headers: Record<string, string> };
  /** The results of a JSON answer; undefined when the answer is not of the provider's shape. */
  results(json: unknown): SearchResult[] | undefined;
  /** What to tell the user about an HTTP error status, beyond the status itself. */
  hint(status: number): string;
}

// SearXNG's JSON format (GET /search?q=…&format=json): results[].title, url, content.
const searxngAnswer = z.looseObject({
  results: z.array(
    z.looseObject({ title: z.string().optional(), url: z.string(), content: z.string().nullish() }),
  ),
});

// Brave Search API (GET /web/search?q=…): web.results[].title, url, description; no `web` when nothing matched.
const braveAnswer = z.looseObject({
  web: z
    .looseObject({
      results: z.array(
        z.looseObject({ title: z.string().optional(), url: z.string(), description: z.string().nullish() }),
      ),
    })
    .optional(),
});

/**
 * The provider config `web.search` names: `searxng` (a SearXNG instance at `base_url`) or `brave` (the
 * Brave Search API, key from BRAVE_SEARCH_API_KEY). Throws CONFIG_ERROR naming what is missing.
 */
export function searchProvider(settings: WebSettings | undefined): SearchProvider {
  const search = settings?.config?.search;
  if (search?.provider === 'searxng') {
    if (!search.base_url) {
      throw new ConfigError(
        'websearch with web.search.provider "searxng" needs web.search.base_url: the address of the ' +
          'SearXNG instance, e.g. "http://localhost:8888".',
        { setting: 'web.search.base_url' },
      );
    }
    return searxng(baseUrl(search.base_url));
  }
  if (search?.provider === 'brave') {
    if (!settings?.braveSearchApiKey) {
      throw new ConfigError(
        'websearch with web.search.provider "brave" needs an API key: set BRAVE_SEARCH_API_KEY in the ' +
          "environment (a key from Brave's Search API dashboard).",
        { setting: 'BRAVE_SEARCH_API_KEY' },
      );
    }
    return brave(baseUrl(search.base_url ?? braveDefaultBaseUrl), settings.braveSearchApiKey);
  }
  if (search?.provider !== undefined) {
    throw new ConfigError(
      `web.search.provider "${search.provider}" is not a search provider Keel knows: use "searxng" or "brave".`,
      { setting: 'web.search.provider', provider: search.provider },
    );
  }
  throw new ConfigError(
    'websearch has no search provider: set web.search.provider in the configuration to "searxng" (with ' +
      'web.search.base_url, your SearXNG instance) or "brave" (with BRAVE_SEARCH_API_KEY in the environment).',
    { setting: 'web.search.provider' },
  );
}

function searxng(base: URL): SearchProvider {
  return {
    name: 'SearXNG',
    request(query) {
      const url = new URL('search', base);
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      return { url, headers: { accept: 'application/json' } };
    },
    results(json) {
      const answer = searxngAnswer.safeParse(json);
      if (!answer.success) return undefined;
      return answer.data.results.map((hit) => ({
        title: hit.title ?? '',
        url: hit.url,
        snippet: hit.content ?? '',
      }));
    },
    hint: (status) =>
      status === 403
        ? ' SearXNG refuses JSON unless its settings.yml lists it: search.formats: [html, json].'
        : '',
  };
}

function brave(base: URL, key: string): SearchProvider {
  return {
    name: 'Brave Search',
    request(query, count) {
      const url = new URL('web/search', base);
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(count));
      return { url, headers: { accept: 'application/json', 'x-subscription-token': key } };
    },
    results(json) {
      const answer = braveAnswer.safeParse(json);
      if (!answer.success) return undefined;
      return (answer.data.web?.results ?? []).map((hit) => ({
        title: plainText(hit.title ?? ''),
        url: hit.url,
        snippet: plainText(hit.description ?? ''),
      }));
    },
    hint: (status) =>
      status === 401 || status === 403
        ? ' Check BRAVE_SEARCH_API_KEY.'
        : status === 429
          ? " The key's rate limit or quota is used up."
          : '',
  };
}

/** `text` as a base URL that relative paths extend (a trailing slash added). */
function baseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`web.search.base_url is not a valid URL: "${text}".`, {
      setting: 'web.search.base_url',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`web.search.base_url must be an http or https URL, not "${text}".`, {
      setting: 'web.search.base_url',
    });
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

// Brave marks the matched words with <strong>, and escapes entities.
const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" };

function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|apos|#39);/g, (_match, name: string) => entities[name] ?? '');
}
