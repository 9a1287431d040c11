import type { AgentContext, FileSystemCapabilities } from '@agentclientprotocol/sdk';
import type { EditorFiles } from '@keel/runtime';

/** read_file through the client's buffers; a file the client cannot read is read from disk. */
export function editorFilesOf(
  client: () => AgentContext | undefined,
  sessionId: string,
  fs: FileSystemCapabilities | null | undefined,
): { editorFiles?: EditorFiles } {
  if (!fs?.readTextFile) return {};
  return {
    editorFiles: {
      async readText(path: string): Promise<string | undefined> {
        const context = client();
        if (!context) return undefined;
        try {
          return (await context.request('fs/read_text_file', { sessionId, path })).content;
        } catch {
          return undefined;
        }
      },
    },
  };
}
