import { readFile, stat } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { ToolError } from '../../errors/index.ts';
import { displayPath } from '../display-path.ts';
import { isBinary } from '../files/text-file.ts';
import { fileSystemError } from '../fs-errors.ts';
import type { ToolContext } from '../tool.ts';
import type { LanguageServer } from './language-server.ts';
import { type LspLanguage, languageOf } from './languages.ts';
import { type DocumentText, maxDocumentBytes } from './open-documents.ts';
import { textLines } from './positions.ts';
import { LspServers } from './server-pool.ts';

/** The file a query is about, read just now: what the server is sent and what positions are checked on. */
export interface LspTarget extends DocumentText {
  /** The path as the model is shown it. */
  shown: string;
  language: LspLanguage;
  lines: string[];
}

/**
 * Resolves `filePath` through the path guard (as read_file does), picks its language by extension and
 * reads it. Errors say what to do: an unsupported extension, a missing file, a directory, a binary file.
 */
export async function readTarget(ctx: ToolContext, filePath: string): Promise<LspTarget> {
  const path = await ctx.guard.resolve(filePath, 'read');
  const shown = displayPath(ctx.guard, path);
  const { language, languageId } = languageOf(path, shown);
  const info = await stat(path).catch((error: unknown) => {
    throw fileSystemError(error, shown, filePath);
  });
  if (info.isDirectory()) {
    throw new ToolError(`${shown} is a directory, not a file. Give the path of a source file.`, {
      path: filePath,
    });
  }
  if (info.size > maxDocumentBytes) {
    throw new ToolError(`${shown} is too large for the language server (${info.size} bytes).`, {
      path: filePath,
      size: info.size,
      limit: maxDocumentBytes,
    });
  }
  const content = await readFile(path).catch((error: unknown) => {
    throw fileSystemError(error, shown, filePath);
  });
  if (isBinary(content))
    throw new ToolError(`${shown} is a binary file, not source code.`, { path: filePath });
  const text = content.toString('utf8');
  return { path, uri: pathToFileURL(path).href, languageId, text, shown, language, lines: textLines(text) };
}

/**
 * Runs `work` on the server of the target's language in the workdir, after bringing the server's copy of
 * the open documents up to date with the disk (`fresh`: and the target's diagnostics, see prepare). A
 * context without the runtime's servers gets servers for this one call, stopped after it.
 */
export async function onServer<T>(
  ctx: ToolContext,
  target: LspTarget,
  fresh: boolean,
  work: (server: LanguageServer) => Promise<T>,
): Promise<T> {
  const access = ctx.lsp;
  const servers = access?.servers ?? new LspServers();
  try {
    return await servers.use(ctx.workdir, target.language, access?.config, ctx.signal, async (server) => {
      await server.prepare(target, fresh, ctx.signal);
      return work(server);
    });
  } finally {
    if (access === undefined) await servers.close();
  }
}
