import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { symbolText } from './locations.ts';
import { onServer, readTarget } from './lsp-target.ts';
import type { LspHover, MarkedString } from './lsp-types.ts';
import { fromLspPosition } from './positions.ts';
import { symbolPosition, symbolPositionFields } from './symbol-position.ts';

/** Longer hover texts (whole docs pages) are cut. */
export const maxHoverChars = 8_000;

const schema = z.object(symbolPositionFields);

export const lspHoverTool = defineTool({
  name: 'lsp_hover',
  traits: { kind: 'search', readOnly: true },
  description:
    'The type, signature and documentation of the symbol at a position of a TypeScript, JavaScript or ' +
    "Python file, as an editor shows on hover, from the project's language server. Give file_path, line, " +
    'and column or symbol (the name on that line).',
  schema,
  async execute(ctx, args) {
    const target = await readTarget(ctx, args.file_path);
    const at = symbolPosition(target, args);
    return onServer(ctx, target, false, async (server) => {
      const hover = await server.request<LspHover | null>(
        'textDocument/hover',
        { textDocument: { uri: target.uri }, position: at.position },
        ctx.signal,
      );
      const text = hover ? hoverText(hover.contents) : '';
      const lineText = target.lines[at.line - 1] ?? '';
      // The server's range is the symbol it describes; without one, the name under the position.
      const symbol = hover?.range ? (symbolText(hover.range, lineText) ?? at.name) : at.name;
      const start = hover?.range ? fromLspPosition(hover.range.start, lineText) : at;
      const where = `${target.shown}:${start.line}:${start.column}${symbol ? ` \`${symbol}\`` : ''}`;
      if (text === '') return `No hover information at ${where}. The position may not be on a name.`;
      const shown = text.length > maxHoverChars ? `${text.slice(0, maxHoverChars)}\n… [cut]` : text;
      return `${where}:\n${shown}`;
    });
  },
});

/** Hover contents in any of LSP's three forms as Markdown text. */
function hoverText(contents: LspHover['contents']): string {
  const part = (item: MarkedString): string =>
    typeof item === 'string' ? item : `\`\`\`${item.language}\n${item.value}\n\`\`\``;
  if (Array.isArray(contents)) return contents.map(part).join('\n\n').trim();
  if (typeof contents === 'object' && contents !== null && 'kind' in contents) return contents.value.trim();
  return part(contents).trim();
}
