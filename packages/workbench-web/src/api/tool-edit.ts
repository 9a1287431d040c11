/**
 * What a file-editing tool call of the Keel runtime changes, read from its arguments: `edit_file` replaces
 * `old_text` by `new_text`, `write_file` writes `content` in full, `patch` applies the unified diff `diff`.
 * Transcripts show it as a diff; other tools (and other runners' edits) have none.
 */
export type ToolEdit =
  | { tool: 'edit_file'; path: string; before: string; after: string }
  | { tool: 'write_file'; path: string; content: string }
  | { tool: 'patch'; path: string; diff: string };

export function toolEditOf(toolName: string, args: Record<string, unknown>): ToolEdit | undefined {
  const path = typeof args.path === 'string' ? args.path : undefined;
  if (!path) return undefined;
  const text = (name: string) => (typeof args[name] === 'string' ? (args[name] as string) : undefined);
  switch (toolName) {
    case 'edit_file': {
      const before = text('old_text');
      const after = text('new_text');
      return before === undefined || after === undefined
        ? undefined
        : { tool: 'edit_file', path, before, after };
    }
    case 'write_file': {
      const content = text('content');
      return content === undefined ? undefined : { tool: 'write_file', path, content };
    }
    case 'patch': {
      const diff = text('diff');
      return diff === undefined ? undefined : { tool: 'patch', path, diff };
    }
    default:
      return undefined;
  }
}
