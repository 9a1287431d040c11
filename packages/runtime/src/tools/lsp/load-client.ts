import { ToolError } from '../../errors/index.ts';
import type { LanguageServer } from './language-server.ts';

let loading: Promise<typeof LanguageServer> | undefined;

/**
 * The language-server client, loaded on first use: `vscode-languageserver-protocol` is an optional peer
 * of the runtime (the `all` install brings it), so a runtime whose model never asks a language server
 * never loads it, and one that does without the package gets an error naming what to install.
 */
export function loadLanguageServer(): Promise<typeof LanguageServer> {
  loading ??= import('./language-server.ts').then(
    (module) => module.LanguageServer,
    (error: unknown) => {
      loading = undefined;
      if ((error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
      throw new ToolError(
        'The language-server tools need the LSP client package: npm install vscode-languageserver-protocol ' +
          '(the @keel/all install includes it).',
        { package: 'vscode-languageserver-protocol' },
      );
    },
  );
  return loading;
}
