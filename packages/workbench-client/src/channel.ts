import { type ChannelMessage, serverMessage } from '@keel/protocol/workbench';
import { WorkbenchApiError, WorkbenchConnectionError, WorkbenchResponseError } from './errors.ts';

/** Makes the WebSocket of one connection: the global `WebSocket` by default (Node ≥ 22, browsers). */
export type WebSocketFactory = (url: string) => WebSocket;

/** How a dropped connection is tried again: after `initialDelayMs`, doubling up to `maxDelayMs`. */
export interface ReconnectOptions {
  /** Default 250. */
  initialDelayMs?: number;
  /** Default 5000. */
  maxDelayMs?: number;
  /** Failed connections in a row before giving up with `WorkbenchConnectionError` (default 10). */
  maxAttempts?: number;
}

export interface ChannelOptions {
  /** The `WS /api/ws` URL, with `?token=` when there is a key: read at every (re)connect. */
  url: () => string;
  /** Hears a refused key (close code 4001) before the follow rejects. */
  onUnauthorized?: (() => void) | undefined;
  channel: string;
  connect: WebSocketFactory;
  reconnect: Required<ReconnectOptions>;
  /** The `after` of each (re)subscribe: where the caller's copy of the log ends. */
  cursor?: () => number | undefined;
  /** Each message of the channel. Answering `'resubscribe'` drops the connection and subscribes again. */
  onMessage: (message: ChannelMessage) => 'resubscribe' | undefined;
  signal?: AbortSignal | undefined;
}

/** The WebSocket close code of a refused token. */
const unauthorized = 4001;

/**
 * Follows one channel on a connection of its own until `signal` aborts (resolves) or something fatal
 * happens (rejects): the service refusing the subscription, an answer its schema does not describe, a
 * callback throwing, or no connection after `maxAttempts` tries. A connection that drops is opened again
 * after a back-off and subscribes again from `cursor()`, so the caller sees the log continue.
 */
export function followChannel(options: ChannelOptions): Promise<void> {
  const { channel, signal, reconnect } = options;
  const route = `WS /api/ws ${channel}`;
  return new Promise<void>((resolve, reject) => {
    let socket: WebSocket | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let done = false;

    const finish = (error?: unknown) => {
      if (done) return;
      done = true;
      signal?.removeEventListener('abort', onAbort);
      if (timer !== undefined) clearTimeout(timer);
      const open = socket;
      socket = undefined;
      try {
        open?.close(1000);
      } catch {}
      if (error === undefined) resolve();
      else reject(error);
    };
    const onAbort = () => finish();

    const again = () => {
      if (done) return;
      if (failures >= reconnect.maxAttempts) {
        finish(new WorkbenchConnectionError(route, failures));
        return;
      }
      const delay = Math.min(reconnect.maxDelayMs, reconnect.initialDelayMs * 2 ** failures);
      failures += 1;
      timer = setTimeout(connect, delay);
    };

    const connect = () => {
      timer = undefined;
      if (done) return;
      let current: WebSocket;
      try {
        current = options.connect(options.url());
      } catch {
        again();
        return;
      }
      socket = current;
      let subscribed = false;
      // This connection is over (closed, failed, or dropped on purpose): the next one subscribes again.
      const drop = () => {
        if (done || socket !== current) return;
        socket = undefined;
        try {
          current.close();
        } catch {}
        again();
      };
      current.addEventListener('open', () => {
        if (done || socket !== current) return;
        const after = options.cursor?.();
        current.send(
          JSON.stringify({ type: 'subscribe', channel, ...(after === undefined ? {} : { after }) }),
        );
      });
      current.addEventListener('message', (event: MessageEvent) => {
        if (done || socket !== current) return;
        let data: unknown = event.data;
        try {
          data = JSON.parse(String(event.data));
        } catch {
          finish(new WorkbenchResponseError(route, 'a message that is not JSON', data));
          return;
        }
        const parsed = serverMessage.safeParse(data);
        if (!parsed.success) {
          finish(
            new WorkbenchResponseError(
              route,
              'a message its schema does not describe',
              data,
              parsed.error.issues,
            ),
          );
          return;
        }
        const message = parsed.data;
        switch (message.type) {
          case 'subscribed':
            if (message.channel === channel) {
              subscribed = true;
              failures = 0;
            }
            return;
          case 'error':
            // This connection carries only this subscription, so an error before `subscribed` is its refusal
            // (an unknown session, say); a service that names the channel says so outright.
            if (message.channel === channel || (message.channel === undefined && !subscribed)) {
              finish(new WorkbenchApiError(null, message.error, route));
            }
            return;
          case 'event':
          case 'status':
          case 'queue':
          case 'task':
          case 'preview':
          case 'preview_log':
            if (message.channel !== channel) return;
            try {
              if (options.onMessage(message) === 'resubscribe') drop();
            } catch (error) {
              finish(error);
            }
            return;
          default:
            return;
        }
      });
      current.addEventListener('close', (event: CloseEvent) => {
        if (done || socket !== current) return;
        if (event.code === unauthorized) {
          options.onUnauthorized?.();
          finish(
            new WorkbenchApiError(
              401,
              {
                code: 'AUTHENTICATION_FAILED',
                message: `The workbench refused the API key (${event.reason}).`,
              },
              route,
            ),
          );
          return;
        }
        drop();
      });
      // A failed connection also closes: the close handler tries again.
      current.addEventListener('error', () => {});
    };

    if (signal?.aborted) {
      resolve();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    connect();
  });
}
