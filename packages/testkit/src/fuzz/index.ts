export type { FuzzFailure, FuzzOptions, FuzzReport } from './fuzz-service.ts';
export { failureSummary, fuzzRequests, fuzzService } from './fuzz-service.ts';
export type { PathSpelling, RawRequest, RawResponse, SocketOutcome } from './hostile.ts';
export { errorOf, pathSpellings, portOf, rawRequest, trySocket } from './hostile.ts';
export type { JsonSchema, OpenApiDocument, Operation } from './openapi.ts';
export { operationsOf } from './openapi.ts';
export type { FuzzRequest, KnownValues } from './requests.ts';
