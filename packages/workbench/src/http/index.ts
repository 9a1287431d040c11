export { installGuard, type SocketAuthorizer } from './auth.ts';
export { installBodyParsers } from './body-parsers.ts';
export { errorBody, installErrorHandler } from './error-handler.ts';
export { requirePrivileged } from './privileged.ts';
export { errorSchema, idParams, noContent, responses, sendJsonText } from './schemas.ts';
