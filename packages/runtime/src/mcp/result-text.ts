import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A tool result longer than this is cut (its end dropped), like a long command output. */
export const maxMcpResultChars = 30_000;

type ContentBlock = CallToolResult['content'][number];

/**
 * The text the model sees for a tool result: text blocks joined by newlines, every other kind of content
 * (images, audio, resources, links) summarised on a line of its own, and the structured content as JSON
 * when there are no blocks at all (a server should repeat it as text, but not every one does).
 */
export function resultText(result: CallToolResult): string {
  const parts = result.content.map(describeBlock);
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push(JSON.stringify(result.structuredContent));
  }
  const text = parts.join('\n');
  if (text.trim() === '') return '(the tool returned no content)';
  if (text.length <= maxMcpResultChars) return text;
  return `${text.slice(0, maxMcpResultChars)}\n[… ${text.length - maxMcpResultChars} of ${text.length} characters cut from the end …]`;
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return `[image: ${block.mimeType}, ${sizeOf(block.data)}]`;
    case 'audio':
      return `[audio: ${block.mimeType}, ${sizeOf(block.data)}]`;
    case 'resource_link':
      return `[resource link: ${block.name} <${block.uri}>${block.mimeType ? ` (${block.mimeType})` : ''}${
        block.description ? `: ${block.description}` : ''
      }]`;
    case 'resource': {
      const { resource } = block;
      const kind = resource.mimeType ? `${resource.uri} (${resource.mimeType})` : resource.uri;
      if ('text' in resource && typeof resource.text === 'string')
        return `[resource ${kind}]\n${resource.text}`;
      const data = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
      return `[resource ${kind}: binary, ${sizeOf(data)}]`;
    }
    default:
      return `[${(block as { type: string }).type} content]`;
  }
}

/** The decoded size of base64 data, for a summary line. */
function sizeOf(base64: string): string {
  const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KiB`;
}
