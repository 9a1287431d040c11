import type { Socket } from 'node:net';
import { wsClientMessage } from '@keel/protocol/runtime';
import {
  type ErrorObject,
  finishedStatuses,
  InvalidStateError,
  type RunRequest,
  type Runtime,
  toErrorObject,
} from '@keel/runtime';
import { admitSocket, readSocketMessage } from '@keel/service';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { z } from 'zod';
import type { RuntimePool } from '../runtime-pool.ts';
import { runToResume } from '../session-run.ts';
import { continueQueued } from './runtime-runs.ts';

// The messages of `WS /ws` (and the chat sockets), as `@keel/protocol/runtime` defines them.
type ClientMessage = z.output<typeof wsClientMessage>;

export interface WebSocketOptions {
  /** Checks the connection's credentials; false closes it with 4001. */
  authorized(request: FastifyRequest): boolean;
}

/**
 * `WS /ws`: one conversation per connection. `run` starts a run (answered by `start`, then its events),
 * `cancel`, `user_input` and `submit_interaction` steer it, `ping` is answered by `pong`. The run lives in
 * the store, not in the connection: closing the socket leaves it running, and a connection opened with
 * `?session_id=` (and optionally `&after=<seq>`) while it runs gets `resuming`, then its events again.
 * The messages both ways are `wsClientMessage` and `wsServerMessage` of `@keel/protocol/runtime`
 * (`components.schemas.WsClientMessage` and `WsServerMessage` of the OpenAPI document).
 */
export function registerWebSocket(app: FastifyInstance, pool: RuntimePool, options: WebSocketOptions): void {
  app.get('/ws', { websocket: true }, (socket, request) => {
    if (!admitSocket(socket, request, options.authorized)) return;
    new Connection(socket, pool.for(), pool).open(request.query as Record<string, string | undefined>);
  });
}

/** A reconnect's `?after=<seq>`: a whole number ≥ 0 (0: the run from its start); anything else: from now. */
export function cursorOf(after: unknown): number | undefined {
  return typeof after === 'string' && /^\d{1,15}$/.test(after) ? Number(after) : undefined;
}

/** How a `run` message starts its run; returns the run's id and the runtime on its store. */
export type StartSocketRun = (data: Record<string, unknown>) => Promise<{ id: string; runtime: Runtime }>;

/** One client's socket and the run it follows (also the chat sockets', with their own `start`). */
export class Connection {
  readonly #socket: WebSocket;
  /** The server's own runtime: where reconnects look for a session's run. */
  readonly #runtime: Runtime;
  readonly #pool: RuntimePool;
  /** The run this connection follows, with the runtime on its store. */
  #run: { id: string; runtime: Runtime } | undefined;
  #following: AbortController | undefined;
  readonly #start: StartSocketRun;

  constructor(socket: WebSocket, runtime: Runtime, pool: RuntimePool, start?: StartSocketRun) {
    this.#socket = socket;
    this.#runtime = runtime;
    this.#pool = pool;
    this.#start = start ?? ((data) => this.#startInWorkdir(data));
  }

  open(query: Record<string, string | undefined>): void {
    this.listen();
    if (query.session_id) void this.resume(query.session_id, cursorOf(query.after), true);
  }

  /** Takes the client's messages from now on; closing the socket stops following (never the run). */
  listen(): void {
    this.#socket.on('message', (data) => void this.#receive(String(data)));
    this.#socket.on('close', () => this.#following?.abort());
  }

  async #receive(text: string): Promise<void> {
    const read = readSocketMessage(wsClientMessage, text);
    if (!read.ok) return this.#error(read.error);
    const message: ClientMessage = read.message;
    try {
      await this.#handle(message);
    } catch (error) {
      this.#error(toErrorObject(error));
    }
  }

  async #handle(message: ClientMessage): Promise<void> {
    switch (message.type) {
      case 'ping':
        return this.#send({ type: 'pong' });
      case 'run': {
        if (this.#run && !(await this.#finished(this.#run))) {
          return this.#error({
            code: 'INVALID_STATE',
            message: `Run '${this.#run.id}' is still in progress on this connection: cancel it or wait for it.`,
          });
        }
        this.#run = await this.#start(message.data);
        return this.#follow(this.#run, 0);
      }
      case 'cancel': {
        const { id, runtime } = this.#current();
        await runtime.cancelRun(id);
        return;
      }
      case 'user_input': {
        const { id, runtime } = this.#current();
        await runtime.sendInput(id, message.content);
        return;
      }
      case 'submit_interaction': {
        const { runtime } = this.#run ?? { runtime: this.#runtime };
        const { request_id: id, content } = message;
        const decided =
          message.action === 'answer'
            ? await runtime.approvals.answer(id, content ?? '')
            : await runtime.approvals[message.action](id, content ? { reason: content } : {});
        continueQueued(runtime, decided.run);
        return;
      }
    }
  }

  /** `/ws`'s `run`: a run in the request's workdir (default the server's), on that workdir's store. */
  async #startInWorkdir(data: Record<string, unknown>): Promise<{ id: string; runtime: Runtime }> {
    const request = { workdir: this.#pool.workdir, ...data } as RunRequest;
    const runtime = this.#pool.for(typeof request.workdir === 'string' ? request.workdir : undefined);
    const run = await runtime.start(request);
    return { id: run.id, runtime };
  }

  /**
   * A reconnect: the session's run still in progress (however many runs came after it), or one that ended
   * after the cursor `after` while the client was away, followed from `after` (undefined: from now), on
   * `runtime`'s store (default the server's). With none, `reportMissing` answers an error.
   */
  async resume(
    sessionId: string,
    after: number | undefined,
    reportMissing: boolean,
    runtime: Runtime = this.#runtime,
  ): Promise<void> {
    const run = await runToResume(runtime, sessionId, after);
    if (!run) {
      if (!reportMissing) return;
      return this.#error({
        code: 'SESSION_NOT_FOUND',
        message: `No run of session '${sessionId}' is in progress.`,
      });
    }
    this.#run = { id: run.id, runtime };
    this.#send({ type: 'resuming', session_id: sessionId, run_id: run.id, last_seq: run.last_seq });
    await this.#follow(this.#run, after ?? run.last_seq);
  }

  /** Pushes the run's stored events after `after` until the run ends or the socket closes. */
  async #follow({ id: runId, runtime }: { id: string; runtime: Runtime }, after: number): Promise<void> {
    this.#following?.abort();
    const following = new AbortController();
    this.#following = following;
    try {
      // A page at a time, each event sent as stored with its seq added: a long run replays without being
      // parsed or held in memory, and the next page waits until this one is written (back-pressure).
      for await (const page of runtime.runs.watchPages(runId, { after, signal: following.signal })) {
        if (this.#socket.readyState !== this.#socket.OPEN) break;
        // The page's frames leave the socket in one write rather than one each; only the last one's
        // callback is waited for (frames are written in order).
        const connection = (this.#socket as unknown as { _socket?: Socket })._socket;
        connection?.cork();
        const last = page.length - 1;
        for (let index = 0; index < last; index++) {
          const { seq, type, json } = page[index]!;
          this.#socket.send(eventMessage(runId, seq, type, json));
        }
        const written = this.#sendText(
          eventMessage(runId, page[last]!.seq, page[last]!.type, page[last]!.json),
        );
        connection?.uncork();
        await written;
      }
    } catch (error) {
      if (!following.signal.aborted) this.#error(toErrorObject(error));
    }
  }

  #current(): { id: string; runtime: Runtime } {
    if (!this.#run) throw new InvalidStateError('No run on this connection: send a run message first.');
    return this.#run;
  }

  async #finished(run: { id: string; runtime: Runtime }): Promise<boolean> {
    return finishedStatuses.includes((await run.runtime.runs.get(run.id)).status);
  }

  #error(error: ErrorObject): void {
    this.#send({ type: 'error', error });
  }

  send(message: Record<string, unknown>): void {
    this.#send(message);
  }

  #send(message: Record<string, unknown>): void {
    void this.#sendText(JSON.stringify(message));
  }

  /** Sends one message; settles once it is written out (or could not be). */
  #sendText(text: string): Promise<void> {
    if (this.#socket.readyState !== this.#socket.OPEN) return Promise.resolve();
    return new Promise((resolve) => this.#socket.send(text, () => resolve()));
  }
}

/**
 * A stored event as this surface sends it: its JSON with `seq` added (spliced in, not re-serialised);
 * `start` plays the role of `session_start`.
 */
function eventMessage(runId: string, seq: number, type: string, json: string): string {
  if (type === 'session_start') {
    const event = JSON.parse(json) as { session_id?: unknown };
    return JSON.stringify({ type: 'start', session_id: event.session_id, run_id: runId, seq });
  }
  return json.length > 2 ? `${json.slice(0, -1)},"seq":${seq}}` : `{"seq":${seq}}`;
}
