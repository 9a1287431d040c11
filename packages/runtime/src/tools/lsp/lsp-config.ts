import type { RuntimeConfig } from '../../config/index.ts';
import type { LspLanguage } from './languages.ts';

/** Config `lsp` as written in the configuration files (and RuntimeOptions.lsp). */
export type LspConfig = NonNullable<RuntimeConfig['lsp']>;
/** One language's entry of config `lsp.servers`. */
export type LspServerConfig = NonNullable<NonNullable<LspConfig['servers']>[LspLanguage]>;

/** A server unused this long is stopped (config `lsp.idle_timeout_ms`): 5 minutes. */
export const defaultLspIdleTimeoutMs = 300_000;
/** Start plus `initialize` (config `lsp.start_timeout_ms`). */
export const defaultLspStartTimeoutMs = 30_000;
/** One query (config `lsp.request_timeout_ms`). */
export const defaultLspRequestTimeoutMs = 30_000;
/** Waiting for a file's published diagnostics (config `lsp.diagnostics_timeout_ms`). */
export const defaultLspDiagnosticsTimeoutMs = 30_000;

/** The time limits a server and its queries run under. */
export interface LspTimeouts {
  idleMs: number;
  startMs: number;
  requestMs: number;
  diagnosticsMs: number;
}

export function lspTimeouts(config: LspConfig | undefined): LspTimeouts {
  return {
    idleMs: config?.idle_timeout_ms ?? defaultLspIdleTimeoutMs,
    startMs: config?.start_timeout_ms ?? defaultLspStartTimeoutMs,
    requestMs: config?.request_timeout_ms ?? defaultLspRequestTimeoutMs,
    diagnosticsMs: config?.diagnostics_timeout_ms ?? defaultLspDiagnosticsTimeoutMs,
  };
}

/** `over` on top of `base`: its limits win, and its server entries replace `base`'s language by language. */
export function mergeLspConfig(
  base: LspConfig | undefined,
  over: LspConfig | undefined,
): LspConfig | undefined {
  if (over === undefined) return base;
  if (base === undefined) return over;
  const servers = base.servers || over.servers ? { ...base.servers, ...over.servers } : undefined;
  return { ...base, ...over, ...(servers ? { servers } : {}) };
}
