import { type ClientMessage, clientMessage } from '@keel/protocol/workbench';
import { admitSocket, readSocketMessage } from '@keel/service';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { WorkbenchError } from '../errors.ts';
import type { SocketAuthorizer } from '../http/index.ts';
import { storeFailure } from '../store/index.ts';
import type { ChannelMessage, Hub, ProjectSnapshot, TaskSnapshot } from './hub.ts';
import { replayInPages } from './paged-replay.ts';
import type { SessionLog } from './session-log.ts';
import type { SessionRunner } from './session-runner.ts';
import type { Sessions } from './sessions.ts';
import { sessionView } from './types.ts';

export interface WebSocketDeps {
  hub: Hub;
  log: SessionLog;
  store: Sessions;
  runner: SessionRunner;
  authorized: SocketAuthorizer;
  /** The task's snapshot for `task:{id}` (404 TASK_NOT_FOUND as any reader). */
  task: (taskId: string) => Promise<TaskSnapshot>;
  /** The project's snapshot for `project:{id}` (404 PROJECT_NOT_FOUND as any reader). */
  project: (projectId: string) => Promise<ProjectSnapshot>;
}

/** `WS /api/ws`: one connection, many channel subscriptions, and chat into a session. */
export function registerWebSocket(app: FastifyInstance, deps: WebSocketDeps): void {
  app.get('/api/ws', { websocket: true, schema: { hide: true } }, (socket, request: FastifyRequest) => {
    if (!admitSocket(socket, request, deps.authorized)) return;
    const connection = new Connection(socket, deps);
    socket.on('message', (data) => connection.receive(String(data)));
    socket.on('close', () => connection.close());
  });
}

/** The channel a client message is about: its own, or a chat's session's (none for a ping). */
function channelOf(message: ClientMessage): string | undefined {
  if (message.type === 'subscribe' || message.type === 'unsubscribe') return message.channel;
  if (message.type === 'chat') return `session:${message.session_id}`;
  return undefined;
}

class Connection {
  readonly #socket: WebSocket;
  readonly #deps: WebSocketDeps;
  /** Per channel: how to stop listening, and the last seq sent (nothing at or below it is sent again). */
  readonly #subscriptions = new Map<string, { stop: () => void; lastSeq: number }>();
  /** The message being handled (the next waits for it). */
  #handling: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(socket: WebSocket, deps: WebSocketDeps) {
    this.#socket = socket;
    this.#deps = deps;
  }

  receive(text: string): void {
    // One message at a time, in the order they came: each is answered before the next is read.
    this.#handling = this.#handling.then(async () => {
      const read = readSocketMessage(clientMessage, text);
      if (!read.ok) {
        this.#error(read.error.code, read.error.message);
        return;
      }
      const message: ClientMessage = read.message;
      try {
        await this.#handle(message);
      } catch (error) {
        const failure = WorkbenchError.is(error) ? error : storeFailure(error);
        const channel = channelOf(message);
        if (failure) this.#error(failure.code, failure.message, channel);
        else this.#error('SERVER_ERROR', 'The message could not be handled.', channel);
      }
    });
  }

  close(): void {
    this.#closed = true;
    for (const { stop } of this.#subscriptions.values()) stop();
    this.#subscriptions.clear();
  }

  async #handle(message: ClientMessage): Promise<void> {
    switch (message.type) {
      case 'ping':
        this.#send({ type: 'pong' });
        return;
      case 'subscribe':
        await this.#subscribe(message.channel, message.after ?? 0);
        return;
      case 'unsubscribe': {
        this.#unsubscribe(message.channel);
        this.#send({ type: 'unsubscribed', channel: message.channel });
        return;
      }
      case 'chat': {
        // Idle: a turn now. Busy (a turn, or the work before it): queued, delivered when that work ends.
        const sent = await this.#deps.runner.send(message.session_id, message.content, (error) => {
          const failure = WorkbenchError.is(error) ? error : storeFailure(error);
          if (failure) this.#error(failure.code, failure.message, `session:${message.session_id}`);
        });
        if (sent.queued) this.#send({ type: 'queued', ...sent });
        return;
      }
    }
  }

  /**
   * Replay then live, with no seam: the listener goes on first, then the log's last seq is read (once the
   * appends made before are written); an entry is broadcast only once written, so every entry after that seq
   * reaches the listener. The replay sends up to that seq a page at a time,
   * yielding between pages (a long log must not stall the service); what the listener hears meanwhile waits,
   * in order, and follows the replay. The seq check drops what the replay already sent, so each entry is sent
   * exactly once, in seq order.
   */
  async #subscribe(channel: string, after: number): Promise<void> {
    if (channel.startsWith('task:')) {
      await this.#subscribeRecord(channel, 'task', this.#deps.task);
      return;
    }
    if (channel.startsWith('project:')) {
      await this.#subscribeRecord(channel, 'project', this.#deps.project);
      return;
    }
    const sessionId = channel.slice('session:'.length);
    await this.#deps.store.get(sessionId); // 404 before anything is sent
    if (this.#closed) return;
    this.#subscriptions.get(channel)?.stop();
    const subscription = { stop: () => {}, lastSeq: after };
    this.#send({ type: 'subscribed', channel, after });
    let waiting: ChannelMessage[] | undefined = [];
    const deliver = (message: ChannelMessage): void => {
      if (message.type === 'event') {
        if (message.seq <= subscription.lastSeq) return;
        subscription.lastSeq = message.seq;
      }
      this.#send(message);
    };
    subscription.stop = this.#deps.hub.subscribe(channel, (message: ChannelMessage) => {
      if (waiting) waiting.push(message);
      else deliver(message);
    });
    this.#subscriptions.set(channel, subscription);
    const active = () =>
      !this.#closed &&
      this.#socket.readyState === this.#socket.OPEN &&
      this.#subscriptions.get(channel) === subscription;
    // Each stored line is an entry's JSON (`{"seq":…}`): wrapped as it is, not parsed and written again.
    const prefix = `{"type":"event","channel":${JSON.stringify(channel)},`;
    try {
      const end = await this.#deps.log.lastSeq(sessionId);
      const sent = await replayInPages(after, end, {
        read: (from, limit) => this.#deps.log.readLines(sessionId, from, limit),
        send: (line) => this.#sendText(prefix + line.slice(1)),
        active,
      });
      subscription.lastSeq = Math.max(subscription.lastSeq, sent);
    } catch (error) {
      // Not left listening with a replay that never ends (the waiting messages would pile up).
      if (active()) this.#unsubscribe(channel);
      throw error;
    }
    if (!active()) return;
    const heard = waiting;
    waiting = undefined;
    for (const message of heard) deliver(message);
    // The row and the queue as they are now, read once the listener is on, so no change falls between.
    const session = await this.#deps.store.get(sessionId);
    this.#send({ type: 'status', channel, session: sessionView(session) });
    const queued = this.#deps.runner.queued(sessionId);
    if (queued.length > 0) this.#send({ type: 'queue', channel, session_id: sessionId, messages: queued });
  }

  /**
   * A task or project as it is now, then every change (a task's follower reads, review and state; a
   * project's status and knowledge layers). Nothing is replayed: the snapshot is the state.
   */
  async #subscribeRecord(
    channel: string,
    kind: 'task' | 'project',
    read: (id: string) => Promise<TaskSnapshot | ProjectSnapshot>,
  ): Promise<void> {
    const snapshot = await read(channel.slice(kind.length + 1));
    if (this.#closed) return;
    this.#subscriptions.get(channel)?.stop();
    this.#send({ type: 'subscribed', channel, after: 0 });
    this.#send({ type: kind, channel, [kind]: snapshot });
    const stop = this.#deps.hub.subscribe(channel, (message: ChannelMessage) => this.#send(message));
    this.#subscriptions.set(channel, { stop, lastSeq: 0 });
  }

  #unsubscribe(channel: string): void {
    this.#subscriptions.get(channel)?.stop();
    this.#subscriptions.delete(channel);
  }

  /** An error, naming the channel it is about when there is one (a client multiplexing channels routes it). */
  #error(code: string, message: string, channel?: string): void {
    this.#send({ type: 'error', ...(channel === undefined ? {} : { channel }), error: { code, message } });
  }

  #send(message: object): void {
    this.#sendText(JSON.stringify(message));
  }

  #sendText(text: string): void {
    if (this.#socket.readyState === this.#socket.OPEN) this.#socket.send(text);
  }
}
