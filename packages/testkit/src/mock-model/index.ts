export type { ScriptFile } from './load-script.ts';
export { loadScriptFile, parseScriptFile } from './load-script.ts';
export type {
  ChatProfile,
  DocumentedBehaviour,
  MockProfileName,
  ReasoningWire,
  ToolCallWire,
} from './profiles.ts';
export { chatProfiles, mockProfileNames } from './profiles.ts';
export { parseScript, scriptedReplySchema } from './script-schema.ts';
export { startMockModel } from './server.ts';
export type {
  ChatRequestBody,
  MessageRole,
  MockModel,
  MockModelOptions,
  MockProtocol,
  RecordedRequest,
  ScriptedReply,
  ScriptedToolCall,
} from './types.ts';
