import type { LspConfig } from './lsp-config.ts';
import type { LspServers } from './server-pool.ts';

/** What the language-server tools read from their tool context. */
export interface LspAccess {
  /** The runtime's servers, shared by its runs and direct tool calls, stopped when it closes. */
  readonly servers: LspServers;
  /** Config `lsp` of the workdir; what it leaves unset takes the defaults (tools/lsp/lsp-config.ts). */
  readonly config?: LspConfig | undefined;
}
