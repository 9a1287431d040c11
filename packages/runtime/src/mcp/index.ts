export type { McpConnection } from './connection.ts';
export type { McpClientPoolOptions } from './connection-pool.ts';
export { McpClientPool } from './connection-pool.ts';
export { createMcpTools, withMcpTools } from './meta-tools.ts';
export { maxMcpResultChars, resultText } from './result-text.ts';
export type {
  HttpServerDefinition,
  McpServerConfig,
  McpServerDefinition,
  McpServerEntry,
  SseServerDefinition,
  StdioServerDefinition,
  UnusableMcpServer,
} from './server-definition.ts';
export {
  defaultCallTimeoutMs,
  defaultConnectTimeoutMs,
  definitionKey,
  isUnusable,
  resolveMcpServers,
} from './server-definition.ts';
export { describeServerTools } from './tool-listing.ts';
