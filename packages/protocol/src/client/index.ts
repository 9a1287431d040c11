// @keel/protocol/client: what both typed clients (@keel/workbench-client, @keel/web-client) share: the
// error classes they subclass and the REST core (URL and query, bearer key, JSON, refusals, schema check).
// No Node APIs: the global fetch (Node ≥ 22, browsers), or a caller's own.
export {
  type ResponseIssue,
  ServiceApiError,
  ServiceConnectionError,
  ServiceResponseError,
} from './errors.ts';
export {
  type Call,
  type CallOptions,
  createCall,
  type Fetch,
  type Query,
  refusal,
  type ServiceHttp,
  segment,
  send,
  urlOf,
} from './http.ts';
