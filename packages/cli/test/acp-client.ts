import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  type ClientConnection,
  client,
  ndJsonStream,
  RequestError,
  type RequestPermissionRequest,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import { schemaViolations } from './acp-schema.ts';

const keelBin = fileURLToPath(new URL('../bin/keel.js', import.meta.url));

/** One JSON-RPC message as it crossed the wire, and who sent it. */
export interface WireMessage {
  from: 'agent' | 'client';
  message: Record<string, unknown>;
}

/** The editor's side of `fs/*`: its open buffers, and whether it lets the agent read them. */
export interface EditorModel {
  /** Unsaved buffers by absolute path; a path not here reads as `defaultText` (or fails, with no default). */
  buffers?: Record<string, string>;
  /** What a read of a path with no buffer answers; undefined: the read fails as "not open". */
  defaultText?: string;
  /** Every read is refused, as an editor does for a file outside its project. */
  refuseReads?: boolean;
}

/** `keel acp` as an editor starts it, with the SDK's client side on its stdio. */
export function startAcp(
  env: Record<string, string>,
  answers: string[],
  args: string[] = [],
  editor: EditorModel = { defaultText: 'UNSAVED BUFFER TEXT\n' },
) {
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
  const fsWrites: { path: string; content: string }[] = [];
  const buffers = { ...editor.buffers };
  // Every message both ways, parsed from the wire itself (not from the SDK's view of it).
  const wire: WireMessage[] = [];
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
      if (editor.refuseReads) throw RequestError.invalidParams({ path: params.path }, 'Not allowed.');
      const text = buffers[params.path] ?? editor.defaultText;
      if (text === undefined) throw RequestError.resourceNotFound(params.path);
      return { content: text };
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      fsWrites.push({ path: params.path, content: params.content });
      buffers[params.path] = params.content;
      return {};
    });
  const connection: ClientConnection = app.connect(
    ndJsonStream(
      Writable.toWeb(logged(child.stdin, 'client', wire)) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    ),
  );
  logLines(child.stdout, 'agent', wire);
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    agent: connection.agent,
    updates,
    permissions,
    permissionCalls,
    heard,
    fsReads,
    fsWrites,
    /** The editor's buffers as they are now (writes through `fs/write_text_file` land here). */
    buffers,
    wire,
    stderr: () => stderr,
    /** Ends `keel acp`, then fails if any message either side sent broke ACP's schema (acp-schema.ts). */
    async stop() {
      connection.close();
      child.stdin.end();
      child.kill('SIGTERM');
      await exited;
      const violations = schemaViolations(wire);
      if (violations.length) {
        throw new Error(
          `${violations.length} ACP schema violation(s) on the wire:\n${violations.join('\n')}`,
        );
      }
    },
  };
}

/** A writable that records each newline-delimited JSON message before passing the bytes on. */
function logged(target: NodeJS.WritableStream, from: WireMessage['from'], wire: WireMessage[]) {
  const lines = lineReader(from, wire);
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines(chunk);
      target.write(chunk, done);
    },
    final(done) {
      target.end();
      done();
    },
  });
}

function logLines(source: NodeJS.ReadableStream, from: WireMessage['from'], wire: WireMessage[]): void {
  const lines = lineReader(from, wire);
  source.on('data', (chunk: Buffer) => lines(chunk));
}

function lineReader(from: WireMessage['from'], wire: WireMessage[]) {
  let pending = '';
  return (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    let end = pending.indexOf('\n');
    while (end >= 0) {
      const line = pending.slice(0, end).trim();
      pending = pending.slice(end + 1);
      if (line) wire.push({ from, message: JSON.parse(line) });
      end = pending.indexOf('\n');
    }
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
