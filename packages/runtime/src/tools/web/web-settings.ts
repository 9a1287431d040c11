import type { RuntimeConfig } from '../../config/index.ts';

/** Config `web` as written in the configuration files. */
export type WebConfig = NonNullable<RuntimeConfig['web']>;

/** What webfetch and websearch read from their tool context. */
export interface WebSettings {
  /** Config `web`; what it leaves unset takes the defaults below. */
  readonly config?: WebConfig | undefined;
  /** BRAVE_SEARCH_API_KEY from the environment, for `web.search.provider: "brave"`. */
  readonly braveSearchApiKey?: string | undefined;
}

/** A fetch, redirects included, gives up after this long (config `web.timeout_ms`). */
export const defaultWebTimeoutMs = 30_000;
/** Response bodies beyond this many bytes are refused (config `web.max_response_bytes`). */
export const defaultMaxResponseBytes = 5 * 1024 * 1024;
/** Redirects followed at most; each new location is checked against the host policy again. */
export const maxRedirects = 5;
/** Longer tool output is cut, like exec_command's, so one page cannot flood the model's context. */
export const maxWebOutputChars = 30_000;
/** Brave Search API's address (config `web.search.base_url` replaces it, e.g. for a proxy). */
export const braveDefaultBaseUrl = 'https://api.search.brave.com/res/v1';

/** The limits of one fetch. */
export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

export function fetchLimits(config: WebConfig | undefined): FetchLimits {
  return {
    timeoutMs: config?.timeout_ms ?? defaultWebTimeoutMs,
    maxBytes: config?.max_response_bytes ?? defaultMaxResponseBytes,
  };
}
