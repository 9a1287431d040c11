import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { asLocations, describeLocation, SourceLines, sortLocations } from './locations.ts';
import { onServer, readTarget } from './lsp-target.ts';
import { symbolPosition, symbolPositionFields } from './symbol-position.ts';

const schema = z.object(symbolPositionFields);

export const lspDefinitionTool = defineTool({
  name: 'lsp_definition',
  traits: { kind: 'search', readOnly: true },
  description:
    'Where the symbol at a position of a TypeScript, JavaScript or Python file is defined, from the ' +
    "project's language server: each place as path:line:column (1-based) with the symbol and its line. " +
    'Give file_path, line, and column or symbol (the name on that line).',
  schema,
  async execute(ctx, args) {
    const target = await readTarget(ctx, args.file_path);
    const at = symbolPosition(target, args);
    const where = `${target.shown}:${at.line}:${at.column}${at.name ? ` (\`${at.name}\`)` : ''}`;
    return onServer(ctx, target, false, async (server) => {
      const answer = await server.request<unknown>(
        'textDocument/definition',
        { textDocument: { uri: target.uri }, position: at.position },
        ctx.signal,
      );
      const locations = sortLocations(asLocations(answer));
      if (locations.length === 0) {
        return `No definition found for ${where}. The position may not be on a name, or the name is built in.`;
      }
      const sources = new SourceLines(ctx.guard, (uri) => server.documents.text(uri));
      const lines = await Promise.all(
        locations.map((location) => describeLocation(ctx.guard, sources, location)),
      );
      const heading =
        locations.length === 1 ? `Definition of ${where}:` : `${locations.length} definitions of ${where}:`;
      return [heading, ...lines].join('\n');
    });
  },
});
