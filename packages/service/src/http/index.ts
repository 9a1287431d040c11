export { type ApiDocsOptions, installApiDocs } from './api-docs.ts';
export { refusedBodyBound } from './body-limit.ts';
export { answerClientError, frameworkOptions } from './client-error.ts';
export {
  answerBadUrl,
  type ErrorMapping,
  errorBody,
  installErrorHandling,
  type ServiceErrorObject,
} from './error-handler.ts';
export { healthRoutes } from './health.ts';
export { errorSchema, eventStream, noContent, responses, sendJsonText } from './responses.ts';
