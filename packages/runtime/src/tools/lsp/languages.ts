import { extname } from 'node:path';
import { ToolError } from '../../errors/index.ts';

/** The languages the language-server tools serve; each has one server per workspace. */
export const lspLanguages = ['typescript', 'python'] as const;
export type LspLanguage = (typeof lspLanguages)[number];

/** A file's language: which server answers for it, and the LSP `languageId` its document is opened with. */
export interface FileLanguage {
  language: LspLanguage;
  languageId: string;
}

// One TypeScript server answers for JavaScript too, as in editors; the languageId tells it which dialect.
const byExtension: Record<string, FileLanguage> = {
  '.ts': { language: 'typescript', languageId: 'typescript' },
  '.mts': { language: 'typescript', languageId: 'typescript' },
  '.cts': { language: 'typescript', languageId: 'typescript' },
  '.tsx': { language: 'typescript', languageId: 'typescriptreact' },
  '.js': { language: 'typescript', languageId: 'javascript' },
  '.mjs': { language: 'typescript', languageId: 'javascript' },
  '.cjs': { language: 'typescript', languageId: 'javascript' },
  '.jsx': { language: 'typescript', languageId: 'javascriptreact' },
  '.py': { language: 'python', languageId: 'python' },
  '.pyi': { language: 'python', languageId: 'python' },
};

/** The extensions served, for messages. */
export const supportedExtensions = Object.keys(byExtension);

/** The language of `path` by its extension; a ToolError naming the supported ones otherwise. */
export function languageOf(path: string, shown: string): FileLanguage {
  const extension = extname(path).toLowerCase();
  const found = byExtension[extension];
  if (found !== undefined) return found;
  const what = extension === '' ? 'has no extension' : `has the extension ${extension}`;
  throw new ToolError(
    `No language server for ${shown}: it ${what}. The language-server tools support TypeScript and ` +
      `JavaScript (${supportedExtensions.filter((ext) => ext !== '.py' && ext !== '.pyi').join(' ')}) ` +
      'and Python (.py .pyi). Use grep or read_file for other files.',
    { path: shown, extension, supported: supportedExtensions },
  );
}
