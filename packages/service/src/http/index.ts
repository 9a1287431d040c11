export { type ApiDocsOptions, installApiDocs } from './api-docs.ts';
export { healthRoutes } from './health.ts';
