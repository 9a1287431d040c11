// The few LSP shapes the tools read, declared here so the runtime's published types never name
// vscode-languageserver-protocol (an optional peer, absent from a base install).

/** Zero-based line and UTF-16 character offset, as LSP counts them. */
export interface LspPosition {
  line: number;
  character: number;
}

export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

export interface LspLocation {
  uri: string;
  range: LspRange;
}

export interface LspLocationLink {
  targetUri: string;
  targetRange: LspRange;
  targetSelectionRange: LspRange;
}

export interface LspDiagnostic {
  range: LspRange;
  /** 1 error, 2 warning, 3 information, 4 hint; absent means the client decides (we say error). */
  severity?: number;
  code?: number | string;
  source?: string;
  message: string;
}

/** `textDocument/publishDiagnostics` parameters. */
export interface PublishDiagnosticsParams {
  uri: string;
  /** The document version the diagnostics are for, when the server says (pyright does). */
  version?: number;
  diagnostics: LspDiagnostic[];
}

export type MarkedString = string | { language: string; value: string };

export interface LspHover {
  contents: MarkedString | MarkedString[] | { kind: string; value: string };
  range?: LspRange;
}
