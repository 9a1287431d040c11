export type { AddressKind } from './address-kind.ts';
export { addressKind } from './address-kind.ts';
export type { HostPolicyWording, HostRules } from './host-policy.ts';
export { HostPolicy } from './host-policy.ts';
export type { HttpGetOptions, HttpGetResponse } from './http-get.ts';
export { httpGet, parseWebUrl } from './http-get.ts';
export type { SearchResult } from './search-providers.ts';
export type { WebConfig, WebSettings } from './web-settings.ts';
export {
  defaultMaxResponseBytes,
  defaultWebTimeoutMs,
  maxRedirects,
  maxWebOutputChars,
} from './web-settings.ts';
export { webfetchTool } from './webfetch.ts';
export { defaultSearchResults, maxSearchResults, websearchTool } from './websearch.ts';
