import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  type ClientConnection,
  client,
  ndJsonStream,
  type RequestPermissionRequest,
  type SessionNotification,
} from '@agentclientprotocol/sdk';

const keelBin = fileURLToPath(new URL('../bin/keel.js', import.meta.url));

/** `keel acp` as an editor starts it, with the SDK's client side on its stdio. */
export function startAcp(env: Record<string, string>, answers: string[], args: string[] = []) {
  const child = spawn(process.execPath, [keelBin, 'acp', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const updates: SessionNotification[] = [];
  const permissions: string[] = [];
  // Each permission request's tool call, and the order of tool calls and requests as the editor heard them.
  const permissionCalls: RequestPermissionRequest['toolCall'][] = [];
  const heard: string[] = [];
  const fsReads: string[] = [];
  const app = client({ name: 'test-editor' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
      const { update } = params;
      if ('toolCallId' in update) heard.push(`${update.sessionUpdate} ${update.toolCallId}`);
    })
    .onRequest('session/request_permission', ({ params }) => {
      permissions.push(params.toolCall.title ?? '');
      permissionCalls.push(params.toolCall);
      heard.push(`permission ${params.toolCall.toolCallId}`);
      const optionId = answers.shift() ?? 'reject_once';
      return { outcome: { outcome: 'selected', optionId } };
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      fsReads.push(params.path);
      return { content: 'UNSAVED BUFFER TEXT\n' };
    });
  const connection: ClientConnection = app.connect(
    ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    ),
  );
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    agent: connection.agent,
    updates,
    permissions,
    permissionCalls,
    heard,
    fsReads,
    stderr: () => stderr,
    async stop() {
      connection.close();
      child.stdin.end();
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export const textOf = (updates: SessionNotification[], kind: string) =>
  updates
    .map((notification) => notification.update)
    .filter((update) => update.sessionUpdate === kind)
    .map((update) =>
      'content' in update && update.content && 'text' in update.content ? update.content.text : '',
    )
    .join('');
