import type { AgentContext, FileSystemCapabilities } from '@agentclientprotocol/sdk';
import type { EditorFiles } from '@keel/runtime';

/** JSON-RPC's "Resource not found" (the SDK's `RequestError.resourceNotFound`). */
const resourceNotFound = -32002;

/**
 * The editor as the one view of the file tools, through the client's `fs/read_text_file` and, when it offers
 * it, `fs/write_text_file`. A "not found" answer means the editor has no such file (Keel then treats it as
 * missing if the disk has none either, so write_file can create it); any other error answer is a refusal
 * that the tool reports, never a reason to read the disk instead.
 */
export function editorFilesOf(
  client: () => AgentContext | undefined,
  sessionId: string,
  fs: FileSystemCapabilities | null | undefined,
): { editorFiles?: EditorFiles } {
  if (!fs?.readTextFile) return {};
  const connected = (): AgentContext => {
    const context = client();
    if (!context) throw new Error('no editor is connected');
    return context;
  };
  const editorFiles: EditorFiles = {
    async readText(path) {
      try {
        return (await connected().request('fs/read_text_file', { sessionId, path })).content;
      } catch (error) {
        if ((error as { code?: unknown }).code === resourceNotFound) return undefined;
        throw error;
      }
    },
  };
  if (fs.writeTextFile) {
    editorFiles.writeText = async (path, text) => {
      await connected().request('fs/write_text_file', { sessionId, path, content: text });
    };
  }
  return { editorFiles };
}
