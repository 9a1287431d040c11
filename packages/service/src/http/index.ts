export { type ApiDocsOptions, installApiDocs } from './api-docs.ts';
export { refusedBodyBound } from './body-limit.ts';
export { answerClientError, frameworkOptions } from './client-error.ts';
export {
  answerBadUrl,
  answerInvalidFieldsWith,
  type ErrorMapping,
  errorBody,
  installErrorHandling,
  invalidFieldsStatusOf,
  type ServiceErrorObject,
} from './error-handler.ts';
export { healthRoutes } from './health.ts';
export { errorSchema, eventStream, noContent, responses, sendJsonText } from './responses.ts';
