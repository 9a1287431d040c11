export type { TestkitErrorCode } from './errors.ts';
export { isTestkitError, TestkitError } from './errors.ts';
export type { EventuallyOptions, Truthy } from './eventually.ts';
export { eventually } from './eventually.ts';
export * from './faults/index.ts';
export { waitForFileCommand } from './gate.ts';
export type {
  ChatRequestBody,
  MessageRole,
  MockModel,
  MockModelOptions,
  MockProtocol,
  RecordedRequest,
  ScriptedReply,
  ScriptedToolCall,
  ScriptFile,
} from './mock-model/index.ts';
export {
  loadScriptFile,
  parseScript,
  parseScriptFile,
  scriptedReplySchema,
  startMockModel,
} from './mock-model/index.ts';
export type {
  RemoteSandboxRecord,
  RemoteSandboxServer,
  RemoteSandboxServerOptions,
} from './remote-sandbox/index.ts';
export { startRemoteSandboxServer } from './remote-sandbox/index.ts';
export type { SeededRandom } from './seeded-random.ts';
export { seededRandom } from './seeded-random.ts';
export type { TempDir, TempGitRepo, TempGitRepoOptions } from './temp/index.ts';
export { createTempDir, createTempGitRepo, pathWithout } from './temp/index.ts';
