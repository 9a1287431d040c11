import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { describeLocation, SourceLines, sortLocations } from './locations.ts';
import { onServer, readTarget } from './lsp-target.ts';
import type { LspLocation } from './lsp-types.ts';
import { symbolPosition, symbolPositionFields } from './symbol-position.ts';

/** More references than this and the rest are counted, not listed. */
export const maxListedReferences = 200;

const schema = z.object({
  ...symbolPositionFields,
  include_declaration: z.boolean().optional().describe('Also list the declaration itself (default true).'),
});

export const lspReferencesTool = defineTool({
  name: 'lsp_references',
  traits: { kind: 'search', readOnly: true },
  description:
    'Every use of the symbol at a position of a TypeScript, JavaScript or Python file across the project, ' +
    "from the project's language server: each as path:line:column (1-based) with the symbol and its line. " +
    'Give file_path, line, and column or symbol (the name on that line).',
  schema,
  async execute(ctx, args) {
    const target = await readTarget(ctx, args.file_path);
    const at = symbolPosition(target, args);
    const where = `${target.shown}:${at.line}:${at.column}${at.name ? ` (\`${at.name}\`)` : ''}`;
    return onServer(ctx, target, false, async (server) => {
      const answer = await server.request<LspLocation[] | null>(
        'textDocument/references',
        {
          textDocument: { uri: target.uri },
          position: at.position,
          context: { includeDeclaration: args.include_declaration ?? true },
        },
        ctx.signal,
      );
      const locations = sortLocations(Array.isArray(answer) ? answer : []);
      if (locations.length === 0) {
        return `No references found for ${where}. The position may not be on a name.`;
      }
      const sources = new SourceLines(ctx.guard, (uri) => server.documents.text(uri));
      const listed = await Promise.all(
        locations
          .slice(0, maxListedReferences)
          .map((location) => describeLocation(ctx.guard, sources, location)),
      );
      const files = new Set(locations.map((location) => location.uri)).size;
      const heading = `${locations.length} ${locations.length === 1 ? 'reference' : 'references'} to ${where} in ${files} ${files === 1 ? 'file' : 'files'}:`;
      const more =
        locations.length > maxListedReferences
          ? [`… and ${locations.length - maxListedReferences} more (use grep to narrow them down).`]
          : [];
      return [heading, ...listed, ...more].join('\n');
    });
  },
});
