// What Keel's two local services share (keel-web and keel-workbench): one home for each concept that both
// servers need, so a fix lands in both at once.

export {
  DirectoryListingError,
  type ListedEntry,
  type Listing,
  type ListingFailure,
  type ListOptions,
  listDirectory,
  maxEntries,
} from './directories/index.ts';
export {
  ApiKey,
  type BindCheck,
  checkBind,
  HostAllowList,
  hostnameOf,
  installRequestGuard,
  isLoopback,
  OriginAllowList,
  offeredKey,
  originOf,
  type Privilege,
  type PrivilegeRefusal,
  plainAddress,
  privilegedChangeRefusal,
  type RequestGuardOptions,
  type SocketAuthorizer,
} from './guard/index.ts';
export {
  type ApiDocsOptions,
  answerBadUrl,
  answerClientError,
  answerInvalidFieldsWith,
  type ErrorMapping,
  errorBody,
  errorSchema,
  eventStream,
  frameworkOptions,
  healthRoutes,
  installApiDocs,
  installErrorHandling,
  invalidFieldsStatusOf,
  noContent,
  refusedBodyBound,
  responses,
  type ServiceErrorObject,
  sendJsonText,
} from './http/index.ts';
export {
  createServiceLog,
  isLogLevel,
  type LogFields,
  type LogLevel,
  type LogStream,
  logLevels,
  logServerErrors,
  RotatingFile,
  type RotatingFileOptions,
  type ServiceLog,
  type ServiceLogOptions,
} from './logging/index.ts';
export {
  collect,
  type Listening,
  positiveInt,
  runServiceProgram,
  type ServeFlags,
  type ServiceProgram,
  serveUntilStopped,
} from './program/index.ts';
export { SlidingWindowLimiter, type SlidingWindowOptions, type WindowDecision } from './rate/index.ts';
export { admitSocket, readSocketMessage, type SocketMessage, unauthorizedClose } from './socket/index.ts';
export { type BuiltAppOptions, builtAppRoutes, findBuiltApp } from './web-app/index.ts';
