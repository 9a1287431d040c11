import {
  type ErrorObject,
  type LogEntry,
  type ProjectSnapshot,
  type QueuedMessage,
  type ServerMessage,
  type Session,
  serverMessage,
} from '@keel/protocol/workbench';
import type { WebSocketFactory } from './channel.ts';
import { type TaskEvents, tellTask } from './tasks.ts';

/** What a subscriber hears about its session. */
export interface SessionListener {
  onEntry(entry: LogEntry): void;
  onStatus?(session: Session): void;
  /** The messages waiting for the session's next turn, on every change (and on subscribe when some wait). */
  onQueue?(messages: QueuedMessage[]): void;
  /** An error about this channel: its subscription refused (an unknown session), or a chat into it refused. */
  onError?(error: ErrorObject): void;
}

/**
 * What a subscriber hears about its task (`task:{id}`): the task on every (re)subscription and change, its
 * previews' states and output. Nothing of a task channel is replayed.
 */
export interface TaskListener extends TaskEvents {
  /**
   * The channel is subscribed (again, after a dropped connection): what happened while it was not is not
   * replayed, so read it now (the previews, their logs); a read started from here misses nothing after it.
   */
  onSubscribed?(): void;
  /** An error about this channel: its subscription refused (an unknown task). */
  onError?(error: ErrorObject): void;
}

interface SessionSubscription {
  kind: 'session';
  channel: string;
  /**
   * Each listener's last delivered seq: nothing at or below it reaches that listener again, and a
   * (re)subscription asks for what follows the lowest of them.
   */
  listeners: Map<SessionListener, number>;
}

/** What a subscriber hears about its project (`project:{id}`): its status and knowledge layers. */
export interface ProjectListener {
  /** The project as it is now (on every (re)subscription), then on every change of it or its knowledge. */
  onProject(project: ProjectSnapshot): void;
  /** An error about this channel: its subscription refused (an unknown project). */
  onError?(error: ErrorObject): void;
}

interface TaskSubscription {
  kind: 'task';
  channel: string;
  listeners: Set<TaskListener>;
}

interface ProjectSubscription {
  kind: 'project';
  channel: string;
  listeners: Set<ProjectListener>;
}

type Subscription = SessionSubscription | TaskSubscription | ProjectSubscription;

function cursor(subscription: SessionSubscription): number {
  return Math.min(...subscription.listeners.values());
}

export interface SocketOptions {
  /** How often to ping an open socket (ms); a missed pong within one interval reconnects. Default 25 s. */
  pingInterval?: number;
  /** Longest wait between reconnect attempts (ms). Default 10 s. */
  maxBackoff?: number;
  /** Default: the global WebSocket. */
  create?: WebSocketFactory;
  /** Hears a refused key (close code 4001); the socket still reconnects, with the key read again. */
  onUnauthorized?: () => void;
}

/** `WebSocket.OPEN`, without reading the global (a test's double may stand in for it). */
const open = 1;
/** The WebSocket close code of a refused token. */
const unauthorized = 4001;

/**
 * One connection to `WS /api/ws` carrying every session and task subscription, for an app that follows
 * many at once (the SPA). Subscribes a session from a cursor (`after`), reconnects with backoff while a
 * subscription is wanted, and on reconnect resubscribes each channel (a session's from the last seq it
 * delivered, so a listener sees every entry once, in order, across drops). Pings keep the connection
 * honest. Every message is checked against the protocol's `serverMessage`; one it does not describe
 * reaches the error listeners as `UNEXPECTED_MESSAGE` and is otherwise dropped.
 */
export class WorkbenchSocket {
  readonly #url: () => string;
  readonly #options: Required<Omit<SocketOptions, 'onUnauthorized'>> & Pick<SocketOptions, 'onUnauthorized'>;
  readonly #subscriptions = new Map<string, Subscription>();
  #socket: WebSocket | null = null;
  #attempt = 0;
  #reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  #pingTimer: ReturnType<typeof setInterval> | null = null;
  #awaitingPong = false;
  #closed = false;
  /** Every error the service sends (a refused chat, a refused subscription) and every unreadable message. */
  readonly #errorListeners = new Set<(error: ErrorObject) => void>();
  readonly #stateListeners = new Set<(open: boolean) => void>();

  /** `url` may be a function: it is read at every (re)connect, so a key entered later is used. */
  constructor(url: string | (() => string), options: SocketOptions = {}) {
    this.#url = typeof url === 'string' ? () => url : url;
    this.#options = {
      pingInterval: options.pingInterval ?? 25_000,
      maxBackoff: options.maxBackoff ?? 10_000,
      create: options.create ?? ((target) => new WebSocket(target)),
      onUnauthorized: options.onUnauthorized,
    };
  }

  get open(): boolean {
    return this.#socket?.readyState === open;
  }

  /**
   * Follows `session:{sessionId}` from after `after`. Several listeners may share a channel, each with its
   * own cursor. Answers the function that stops listening.
   */
  subscribe(sessionId: string, after: number, listener: SessionListener): () => void {
    const channel = `session:${sessionId}`;
    const known = this.#subscriptions.get(channel);
    const subscription: SessionSubscription =
      known?.kind === 'session' ? known : { kind: 'session', channel, listeners: new Map() };
    const before = known ? cursor(subscription) : Number.POSITIVE_INFINITY;
    this.#subscriptions.set(channel, subscription);
    subscription.listeners.set(listener, after);
    this.#ensureConnected();
    // A listener behind the others needs the replay from its own cursor; the others drop what they had.
    if (after < before) this.#sendSubscribe(subscription);
    return () => {
      subscription.listeners.delete(listener);
      this.#release(subscription);
    };
  }

  /**
   * Follows `task:{taskId}`: the task, its previews' states and their output. Several listeners may share
   * a task; each new one subscribes the channel again, so every listener hears `onSubscribed` and the task
   * as it is now. Answers the function that stops listening.
   */
  subscribeTask(taskId: string, listener: TaskListener): () => void {
    const channel = `task:${taskId}`;
    const known = this.#subscriptions.get(channel);
    return this.#follow(
      known?.kind === 'task' ? known : { kind: 'task', channel, listeners: new Set<TaskListener>() },
      listener,
    );
  }

  /**
   * Follows `project:{projectId}`: the project and its knowledge layers now and on every change (a page
   * waiting for READY needs no polling). Answers the function that stops listening.
   */
  subscribeProject(projectId: string, listener: ProjectListener): () => void {
    const channel = `project:${projectId}`;
    const known = this.#subscriptions.get(channel);
    return this.#follow(
      known?.kind === 'project' ? known : { kind: 'project', channel, listeners: new Set<ProjectListener>() },
      listener,
    );
  }

  /** Adds `listener` to a task's or project's subscription, (re)subscribing it; answers how to stop. */
  #follow<Listener>(
    subscription: (TaskSubscription | ProjectSubscription) & { listeners: Set<Listener> },
    listener: Listener,
  ): () => void {
    this.#subscriptions.set(subscription.channel, subscription);
    subscription.listeners.add(listener);
    this.#ensureConnected();
    this.#sendSubscribe(subscription);
    return () => {
      subscription.listeners.delete(listener);
      this.#release(subscription);
    };
  }

  /** A chat message into a session: false when the socket is not open (the caller says so). */
  chat(sessionId: string, content: string): boolean {
    this.#ensureConnected();
    return this.#send({ type: 'chat', session_id: sessionId, content });
  }

  /** Hears every error, whatever channel it names (or none). Answers the function that stops listening. */
  onError(listener: (error: ErrorObject) => void): () => void {
    this.#errorListeners.add(listener);
    return () => this.#errorListeners.delete(listener);
  }

  onConnection(listener: (open: boolean) => void): () => void {
    this.#stateListeners.add(listener);
    return () => this.#stateListeners.delete(listener);
  }

  close(): void {
    this.#closed = true;
    this.#stopTimers();
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = null;
    this.#socket?.close();
    this.#socket = null;
  }

  /** A subscription nobody listens to any more is given up. */
  #release(subscription: Subscription): void {
    if (subscription.listeners.size > 0 || this.#subscriptions.get(subscription.channel) !== subscription) {
      return;
    }
    this.#subscriptions.delete(subscription.channel);
    this.#send({ type: 'unsubscribe', channel: subscription.channel });
  }

  #ensureConnected(): void {
    if (this.#closed || this.#socket || this.#reconnectTimer) return;
    this.#connect();
  }

  #connect(): void {
    this.#reconnectTimer = null;
    let socket: WebSocket;
    try {
      socket = this.#options.create(this.#url());
    } catch {
      this.#scheduleReconnect();
      return;
    }
    this.#socket = socket;
    socket.addEventListener('open', () => {
      this.#attempt = 0;
      for (const subscription of this.#subscriptions.values()) this.#sendSubscribe(subscription);
      this.#startPing();
      for (const listener of this.#stateListeners) listener(true);
    });
    socket.addEventListener('message', (message: MessageEvent) => this.#receive(String(message.data)));
    socket.addEventListener('close', (event: CloseEvent) => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      this.#stopTimers();
      if (event.code === unauthorized) this.#options.onUnauthorized?.();
      for (const listener of this.#stateListeners) listener(false);
      this.#scheduleReconnect();
    });
    // An error is followed by close; reconnecting happens there.
    socket.addEventListener('error', () => {});
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#subscriptions.size === 0 || this.#reconnectTimer) return;
    const delay = Math.min(this.#options.maxBackoff, 250 * 2 ** this.#attempt);
    this.#attempt += 1;
    this.#reconnectTimer = setTimeout(() => this.#connect(), delay);
  }

  #startPing(): void {
    this.#stopTimers();
    this.#awaitingPong = false;
    this.#pingTimer = setInterval(() => {
      if (this.#awaitingPong) {
        // No pong for a whole interval: the connection is dead without having said so.
        this.#socket?.close();
        return;
      }
      this.#awaitingPong = this.#send({ type: 'ping' });
    }, this.#options.pingInterval);
  }

  #stopTimers(): void {
    if (this.#pingTimer) clearInterval(this.#pingTimer);
    this.#pingTimer = null;
  }

  #sendSubscribe(subscription: Subscription): void {
    const after = subscription.kind === 'session' ? { after: cursor(subscription) } : {};
    this.#send({ type: 'subscribe', channel: subscription.channel, ...after });
  }

  /** The session subscription of `channel`, if that is what it is. */
  #session(channel: string): SessionSubscription | undefined {
    const subscription = this.#subscriptions.get(channel);
    return subscription?.kind === 'session' ? subscription : undefined;
  }

  /** The listeners of the task subscription of `channel` (a copy: a listener may stop listening as it hears). */
  #taskListeners(channel: string): TaskListener[] {
    const subscription = this.#subscriptions.get(channel);
    return subscription?.kind === 'task' ? [...subscription.listeners] : [];
  }

  #send(message: object): boolean {
    const socket = this.#socket;
    if (!socket || socket.readyState !== open) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  #receive(text: string): void {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      this.#unexpected('a message that is not JSON');
      return;
    }
    const parsed = serverMessage.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `${issue.path.map(String).join('.')}: ` : '';
      this.#unexpected(`a message its schema does not describe (${where}${issue?.message ?? 'invalid'})`);
      return;
    }
    const message: ServerMessage = parsed.data;
    switch (message.type) {
      case 'pong':
        this.#awaitingPong = false;
        return;
      case 'event': {
        const subscription = this.#session(message.channel);
        if (!subscription) return;
        const entry: LogEntry = { seq: message.seq, timestamp: message.timestamp, event: message.event };
        for (const [listener, lastSeq] of subscription.listeners) {
          if (entry.seq <= lastSeq) continue;
          subscription.listeners.set(listener, entry.seq);
          listener.onEntry(entry);
        }
        return;
      }
      case 'status': {
        const subscription = this.#session(message.channel);
        for (const listener of subscription?.listeners.keys() ?? []) listener.onStatus?.(message.session);
        return;
      }
      case 'queue': {
        const subscription = this.#session(message.channel);
        for (const listener of subscription?.listeners.keys() ?? []) listener.onQueue?.(message.messages);
        return;
      }
      case 'subscribed':
        for (const listener of this.#taskListeners(message.channel)) listener.onSubscribed?.();
        return;
      case 'task':
      case 'preview':
      case 'preview_log':
        for (const listener of this.#taskListeners(message.channel)) tellTask(message, listener);
        return;
      case 'project': {
        const subscription = this.#subscriptions.get(message.channel);
        if (subscription?.kind !== 'project') return;
        for (const listener of [...subscription.listeners]) listener.onProject(message.project);
        return;
      }
      case 'error': {
        // The channel's own listeners first (a service older than the `channel` field names none).
        const subscription = message.channel ? this.#subscriptions.get(message.channel) : undefined;
        for (const listener of subscription?.listeners.keys() ?? []) listener.onError?.(message.error);
        for (const listener of this.#errorListeners) listener(message.error);
        return;
      }
      default:
        return;
    }
  }

  #unexpected(what: string): void {
    const error = { code: 'UNEXPECTED_MESSAGE', message: `WS /api/ws sent ${what}.` };
    for (const listener of this.#errorListeners) listener(error);
  }
}
