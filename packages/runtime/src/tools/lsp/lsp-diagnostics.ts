import { z } from 'zod';
import { ToolError } from '../../errors/index.ts';
import { defineTool } from '../tool.ts';
import { diagnosticsText } from './diagnostics-text.ts';
import { onServer, readTarget } from './lsp-target.ts';

const schema = z.object({
  file_path: z.string().describe('Path of the source file, relative to the working directory or absolute.'),
  include_hints: z
    .boolean()
    .optional()
    .describe('Also list hints (unused names, deprecations), which are only counted by default.'),
});

export const lspDiagnosticsTool = defineTool({
  name: 'lsp_diagnostics',
  traits: { kind: 'search', readOnly: true },
  description:
    "Type errors, warnings and other problems in a TypeScript, JavaScript or Python file, from the project's " +
    'language server (typescript-language-server, pyright) as the file is on disk now. Each entry gives ' +
    '1-based line:column ranges, severity, source and code, the message and the line. Check a file after ' +
    'editing it; the first call in a project starts the server and takes a few seconds.',
  schema,
  async execute(ctx, args) {
    const target = await readTarget(ctx, args.file_path);
    return onServer(ctx, target, true, async (server) => {
      const includeHints = args.include_hints ?? false;
      const name = server.definition.name;
      const published = await server.diagnosticsOf(target.uri, ctx.signal);
      if (published !== undefined) {
        return diagnosticsText({ ...target, diagnostics: published.diagnostics, server: name, includeHints });
      }
      const waited = `${server.timeouts.diagnosticsMs} ms (config lsp.diagnostics_timeout_ms)`;
      const last = server.diagnostics.latest(target.uri);
      if (last === undefined) {
        throw new ToolError(
          `${name} published no diagnostics for ${target.shown} within ${waited}. It may still be loading ` +
            'the project: try again shortly.',
          { path: args.file_path, server: name },
        );
      }
      const text = diagnosticsText({ ...target, diagnostics: last.diagnostics, server: name, includeHints });
      return `${text}\n(${name} sent nothing newer within ${waited}: these are the last diagnostics it published for this file, possibly for an earlier version of it.)`;
    });
  },
});
