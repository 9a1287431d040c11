// The language-server tools (lsp_diagnostics, lsp_definition, lsp_references, lsp_hover) and the
// per-workspace servers they query (typescript-language-server, pyright; started on first use).
export type { FileLanguage, LspLanguage } from './languages.ts';
export { languageOf, lspLanguages, supportedExtensions } from './languages.ts';
export type { LspAccess } from './lsp-access.ts';
export type { LspConfig, LspServerConfig, LspTimeouts } from './lsp-config.ts';
export {
  defaultLspDiagnosticsTimeoutMs,
  defaultLspIdleTimeoutMs,
  defaultLspRequestTimeoutMs,
  defaultLspStartTimeoutMs,
  lspTimeouts,
  mergeLspConfig,
} from './lsp-config.ts';
export { lspDefinitionTool } from './lsp-definition.ts';
export { lspDiagnosticsTool } from './lsp-diagnostics.ts';
export { lspHoverTool } from './lsp-hover.ts';
export { lspReferencesTool } from './lsp-references.ts';
export type { LspServerDefinition } from './server-definitions.ts';
export { serverDefinition } from './server-definitions.ts';
export type { LspServersOptions, RunningLspServer } from './server-pool.ts';
export { LspServers } from './server-pool.ts';
