import { SHARE_ENV, Worker, type WorkerOptions, workerData } from 'node:worker_threads';
import { WorkbenchError, type WorkbenchErrorObject } from '../errors.ts';

/** What the worker answers for one call. */
export type OffLoopReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { workbench?: WorkbenchErrorObject; message: string; stack?: string } };

/** What the main thread asks the worker: call `name` of the module at `url` with `args`. */
export interface OffLoopCall {
  id: number;
  url: string;
  name: string;
  args: unknown[];
}

/** What the main thread tells the worker ahead of any call: import these modules (nothing is answered). */
export interface OffLoopWarm {
  warm: string[];
}

/** Set in the worker's `workerData`: code already running there calls its functions directly. */
export const offLoopMarker = 'keel-workbench-off-loop';

const insideWorker = (workerData as Record<string, unknown> | null)?.[offLoopMarker] === true;

/** The modules whose functions run in the worker, as their `offLoop` calls named them on this thread. */
const offLoopModules = new Set<string>();

/**
 * `fn`, run in the workbench's worker thread. `fn` must be exported as `name` by the module at `url` (pass
 * the module's own `import.meta.url`: the worker imports the same file, `src/*.ts` under the tests and
 * `dist/*.js` when installed). Arguments and the answer cross by structured clone; a WorkbenchError thrown
 * there is thrown here with its code and details. Called from the worker itself, `fn` runs directly.
 */
export function offLoop<A extends unknown[], R>(
  url: string,
  name: string,
  fn: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  if (insideWorker) return fn;
  offLoopModules.add(url);
  return (...args: A) => pool.call(url, name, args) as Promise<R>;
}

/**
 * Starts the worker now (unless it runs) and has it import every module an `offLoop` named so far, so that
 * the first call waits for neither: a project's first scan waited 0.2-0.6 s for the thread and the ~700
 * modules the scan's imports bring (issue #44). The service calls it as it starts. The worker still never
 * keeps the process alive while no call is in flight.
 */
export function prewarmOffLoop(): void {
  pool.warm([...offLoopModules]);
}

/** The thread id of the running worker, or undefined when none runs (it starts at `prewarmOffLoop` or a call). */
export function offLoopThreadId(): number | undefined {
  return pool.threadId;
}

/** Stops the worker (a new one starts at the next call); pending calls fail. */
export async function closeOffLoop(): Promise<void> {
  await pool.close();
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * One worker, started by `prewarmOffLoop` or the first call, kept while the process lives, never keeping it
 * alive when idle.
 */
class OffLoopWorker {
  #worker: Worker | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();

  call(url: string, name: string, args: unknown[]): Promise<unknown> {
    const worker = this.#start();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      // A call in flight keeps the process alive, as the same work on the main thread would.
      if (this.#pending.size === 1) worker.ref();
      try {
        worker.postMessage({ id, url, name, args } satisfies OffLoopCall);
      } catch (error) {
        // Arguments that cannot be cloned (a function, a socket): the call fails here, nothing was sent.
        this.#settle({ id, ok: false, error: { message: (error as Error).message } });
      }
    });
  }

  /** Starts the worker if need be and has it import `urls` (a call to one of them meanwhile waits for it). */
  warm(urls: string[]): void {
    try {
      this.#start().postMessage({ warm: urls } satisfies OffLoopWarm);
    } catch {
      // A worker that cannot start fails the first call, which says why; the service starts all the same.
    }
  }

  get threadId(): number | undefined {
    return this.#worker?.threadId;
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) await worker.terminate();
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const self = new URL(import.meta.url);
    // The worker file beside this one, as this one runs: `.ts` from the sources, `.js` from dist/.
    const extension = self.pathname.endsWith('.ts') ? '.ts' : '.js';
    const worker = startWorker(new URL(`./worker${extension}`, self), extension === '.ts');
    worker.on('message', (reply: OffLoopReply) => this.#settle(reply));
    worker.on('error', (error) => this.#fail(worker, error));
    worker.on('exit', (code) => this.#fail(worker, new Error(`the off-loop worker exited (${code})`)));
    // After the listeners: adding a 'message' listener refs the worker again.
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  #settle(reply: OffLoopReply): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#worker?.unref();
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(revive(reply.error));
  }

  /** A worker that failed or exited answers nothing more: its calls fail, the next call starts another. */
  #fail(worker: Worker, error: Error): void {
    if (this.#worker === worker) this.#worker = undefined;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}

const pool = new OffLoopWorker();

const sourceCondition = '--conditions=@keel/source';

/**
 * The worker, with the main thread's Node options. Run from the sources (`fromSources`), it resolves the
 * workspace packages to their sources too (the `@keel/source` condition), as the tests and benches do.
 */
function startWorker(file: URL, fromSources: boolean): Worker {
  const options: WorkerOptions = {
    workerData: { [offLoopMarker]: true },
    // The same variables as the main thread, even ones set after the worker started.
    env: SHARE_ENV,
  };
  if (!fromSources || process.execArgv.includes(sourceCondition)) return new Worker(file, options);
  try {
    return new Worker(file, { ...options, execArgv: [...process.execArgv, sourceCondition] });
  } catch (error) {
    // Options a worker may not be given again (V8's, the process's): it inherits them anyway.
    if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    return new Worker(file, { ...options, execArgv: [sourceCondition] });
  }
}

/** The error thrown in the worker, as the caller would have seen it on this thread. */
function revive(error: Extract<OffLoopReply, { ok: false }>['error']): Error {
  const revived = error.workbench
    ? new WorkbenchError(error.workbench.code, error.workbench.message, error.workbench.details)
    : new Error(error.message);
  if (error.stack) revived.stack = error.stack;
  return revived;
}
