import {
  type ErrorObject,
  finishedStatuses,
  InvalidStateError,
  type RunRequest,
  type Runtime,
  toErrorObject,
} from '@keel/runtime';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import type { RuntimePool } from '../runtime-pool.ts';
import { continueQueued } from './runtime-runs.ts';

/** Close code for a connection without a valid token (spec section 5). */
export const unauthorizedClose = 4001;

const clientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run'), data: z.looseObject({ prompt: z.string() }) }),
  z.object({ type: z.literal('cancel') }),
  z.object({ type: z.literal('user_input'), content: z.string().min(1) }),
  z.object({
    type: z.literal('submit_interaction'),
    request_id: z.string().min(1),
    action: z.enum(['answer', 'approve', 'reject']).default('answer'),
    content: z.string().optional(),
  }),
  z.object({ type: z.literal('ping') }),
]);
type ClientMessage = z.infer<typeof clientMessage>;

export interface WebSocketOptions {
  /** Checks the connection's credentials; false closes it with 4001. */
  authorized(request: FastifyRequest): boolean;
}

/**
 * `WS /ws`: one conversation per connection. `run` starts a run (answered by `start`, then its events),
 * `cancel`, `user_input` and `submit_interaction` steer it, `ping` is answered by `pong`. The run lives in
 * the store, not in the connection: closing the socket leaves it running, and a connection opened with
 * `?session_id=` (and optionally `&after=<seq>`) while it runs gets `resuming`, then its events again.
 */
export function registerWebSocket(app: FastifyInstance, pool: RuntimePool, options: WebSocketOptions): void {
  app.get('/ws', { websocket: true }, (socket, request) => {
    if (!options.authorized(request)) {
      socket.close(unauthorizedClose, 'Unauthorized');
      return;
    }
    new Connection(socket, pool.for(), pool).open(request.query as Record<string, string | undefined>);
  });
}

/** One client's socket and the run it follows. */
class Connection {
  readonly #socket: WebSocket;
  /** The server's own runtime: where reconnects look for a session's run. */
  readonly #runtime: Runtime;
  readonly #pool: RuntimePool;
  /** The run this connection follows, with the runtime on its store. */
  #run: { id: string; runtime: Runtime } | undefined;
  #following: AbortController | undefined;

  constructor(socket: WebSocket, runtime: Runtime, pool: RuntimePool) {
    this.#socket = socket;
    this.#runtime = runtime;
    this.#pool = pool;
  }

  open(query: Record<string, string | undefined>): void {
    this.#socket.on('message', (data) => void this.#receive(String(data)));
    this.#socket.on('close', () => this.#following?.abort());
    if (query.session_id) void this.#resume(query.session_id, Number(query.after ?? 0));
  }

  async #receive(text: string): Promise<void> {
    let message: ClientMessage;
    try {
      const parsed = clientMessage.safeParse(JSON.parse(text));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
        return this.#error({
          code: 'INVALID_PARAMS',
          message: `${where}${issue?.message ?? 'invalid message'}`,
        });
      }
      message = parsed.data;
    } catch {
      return this.#error({ code: 'INVALID_PARAMS', message: 'Messages must be JSON objects with a type.' });
    }
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
        const request = { workdir: this.#pool.workdir, ...message.data } as RunRequest;
        const runtime = this.#pool.for(typeof request.workdir === 'string' ? request.workdir : undefined);
        const run = await runtime.start(request);
        this.#run = { id: run.id, runtime };
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

  /** A reconnect: the session's run still in progress, from the cursor. */
  async #resume(sessionId: string, after: number): Promise<void> {
    const [run] = (await this.#runtime.runs.list({ limit: 20 })).filter(
      (each) => each.session_id === sessionId && !finishedStatuses.includes(each.status),
    );
    if (!run) {
      return this.#error({
        code: 'SESSION_NOT_FOUND',
        message: `No run of session '${sessionId}' is in progress.`,
      });
    }
    this.#run = { id: run.id, runtime: this.#runtime };
    this.#send({ type: 'resuming', session_id: sessionId, run_id: run.id, last_seq: run.last_seq });
    await this.#follow(this.#run, Number.isInteger(after) && after > 0 ? after : run.last_seq);
  }

  /** Pushes the run's stored events after `after` until the run ends or the socket closes. */
  async #follow({ id: runId, runtime }: { id: string; runtime: Runtime }, after: number): Promise<void> {
    this.#following?.abort();
    const following = new AbortController();
    this.#following = following;
    try {
      for await (const record of runtime.runs.watch(runId, { after, signal: following.signal })) {
        const { event } = record;
        // `start` plays the role of `session_start` on this surface.
        const body =
          event.type === 'session_start'
            ? { type: 'start', session_id: event.session_id, run_id: runId }
            : { ...event };
        this.#send({ ...body, seq: record.seq });
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

  #send(message: Record<string, unknown>): void {
    if (this.#socket.readyState === this.#socket.OPEN) this.#socket.send(JSON.stringify(message));
  }
}
