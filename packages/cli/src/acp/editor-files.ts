import type { AgentContext } from '@agentclientprotocol/sdk';

/** read_file through the client's buffers; a file the client cannot read is read from disk. */
export function editorFilesOf(client: () => AgentContext | undefined, sessionId: string) {
  return {
    async readText(path: string): Promise<string | undefined> {
      const context = client();
      if (!context) return undefined;
      try {
        return (await context.request('fs/read_text_file', { sessionId, path })).content;
      } catch {
        return undefined;
      }
    },
  };
}
