import { VERSION } from 'openai/version';
import { nodeHttp } from '../net/index.ts';

/** Where the model client goes when no base URL is set anywhere (the OpenAI client's default). */
export const defaultModelBaseUrl = 'https://api.openai.com/v1';

/** Where a chat request goes, and the headers every one carries. */
export interface ChatTarget {
  url: string;
  headers: Record<string, string>;
}

/**
 * The URL and headers of `POST /chat/completions`, as the openai client made them when it sent the
 * requests (chat-post.ts sends them now), with the environment it read: OPENAI_BASE_URL where no base URL
 * is set, OPENAI_ORG_ID, OPENAI_PROJECT_ID, and OPENAI_CUSTOM_HEADERS (a `Name: value` a line). Its own
 * telemetry (`x-stainless-*`) is no longer sent. Throws a TypeError for a base URL that is none, or a header
 * that cannot be sent.
 */
export function chatTarget(
  settings: { baseURL?: string | undefined; apiKey: string },
  env: NodeJS.ProcessEnv = process.env,
): ChatTarget {
  const read = (name: string) => env[name]?.trim() || undefined;
  const baseURL = settings.baseURL || read('OPENAI_BASE_URL') || defaultModelBaseUrl;
  // Later entries win, in the client's order: its defaults, the key, the custom headers, the body's type.
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': `OpenAI/JS ${VERSION}`,
  };
  const organization = read('OPENAI_ORG_ID');
  if (organization) headers['openai-organization'] = organization;
  const project = read('OPENAI_PROJECT_ID');
  if (project) headers['openai-project'] = project;
  headers.authorization = `Bearer ${settings.apiKey}`;
  for (const line of read('OPENAI_CUSTOM_HEADERS')?.split('\n') ?? []) {
    const colon = line.indexOf(':');
    if (colon >= 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  headers['content-type'] = 'application/json';
  // A bad name or value (a key with a line break) fails here, as the client's `Headers` failed, not as a network error.
  const { validateHeaderName, validateHeaderValue } = nodeHttp();
  for (const [name, value] of Object.entries(headers)) {
    validateHeaderName(name);
    validateHeaderValue(name, value);
  }
  return { url: chatUrl(baseURL), headers };
}

/** The base URL with `/chat/completions` after its path; a query it carries (Azure's `api-version`) stays. */
function chatUrl(baseURL: string): string {
  const path = 'chat/completions';
  if (!baseURL.includes('?')) return new URL(baseURL + (baseURL.endsWith('/') ? path : `/${path}`)).href;
  const base = new URL(baseURL);
  const query = base.search;
  base.search = '';
  base.hash = '';
  const url = new URL(base.href + (base.pathname.endsWith('/') ? path : `/${path}`));
  url.search = query;
  return url.href;
}
