// @keel/web-client: a typed client of keel-web's REST API and run event streams, on the wire's schemas of
// @keel/protocol/runtime. No Node APIs: the global fetch and streams (Node ≥ 22, browsers).
export { createKeelWebClient, type KeelWebClient, type KeelWebClientOptions } from './client.ts';
export { KeelWebApiError, KeelWebConnectionError, KeelWebResponseError } from './errors.ts';
export type { FollowOptions, ReconnectOptions, RunEventEntry } from './events.ts';
export type { Fetch } from './http.ts';
export type * from './requests.ts';
export { type SseMessage, sseMessages } from './sse.ts';
