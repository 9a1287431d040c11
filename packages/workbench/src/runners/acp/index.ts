// The editor-agent runner (kind 'acp'): a coding agent spoken to over the Agent Client Protocol, by default
// `opencode acp`. Its idle timeout (default 30 min) is set with the `timeoutMs` option or
// KEEL_ACP_TIMEOUT_MS in the runner config's env.

export type { AcpRunnerOptions } from './acp-request.ts';
export { defaultTimeoutMs } from './acp-request.ts';
export { AcpRunner } from './acp-runner.ts';
