import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  createRuntime,
  InvalidParamsError,
  KeelError,
  type Runtime,
  type RuntimeOptions,
} from '@keel/runtime';
import { loadConfig, readEnv } from '@keel/runtime/internal';
import type { OrphanWatch } from './orphan-watch.ts';

export interface RuntimePoolOptions extends RuntimeOptions {
  workdir: string;
  /** Starts what runs beside each runtime as it is made (keel-web's orphan watch); stopped by `close()`. */
  started?: (runtime: Runtime) => OrphanWatch;
}

const notFound = new Set([
  'RUN_NOT_FOUND',
  'CHECKPOINT_NOT_FOUND',
  'APPROVAL_NOT_FOUND',
  'ARTIFACT_NOT_FOUND',
  'PROJECT_NOT_FOUND',
  'TASK_NOT_FOUND',
  'AGENT_NOT_FOUND',
]);

/**
 * The runtimes a server works through, one per store. Which store a request reaches is configuration
 * resolved from its workdir, as on every surface (project `.runtime/config.json` over the global one),
 * so a run started here is found by `keel` on the same directory and the other way round. Requests that
 * name no workdir use the server's own.
 */
export class RuntimePool {
  readonly #options: RuntimeOptions;
  readonly #defaultWorkdir: string;
  readonly #runtimes = new Map<string, Runtime>();
  readonly #started: RuntimePoolOptions['started'];
  readonly #watches: OrphanWatch[] = [];

  constructor({ started, ...options }: RuntimePoolOptions) {
    this.#options = options;
    this.#defaultWorkdir = resolve(options.workdir);
    this.#started = started;
  }

  /** The server's own workdir: the default of requests that name none. */
  get workdir(): string {
    return this.#defaultWorkdir;
  }

  /** The runtime on `workdir`'s store; INVALID_PARAMS when it is not a directory. */
  for(workdir?: string): Runtime {
    const dir = workdir === undefined ? this.#defaultWorkdir : resolve(this.#defaultWorkdir, workdir);
    if (workdir !== undefined && !isDirectory(dir)) {
      throw new InvalidParamsError(`workdir '${workdir}' is not a directory.`, { field: 'workdir' });
    }
    const runtimeDir = this.#options.runtimeDir ?? readEnv(this.#options.env).home;
    const config = loadConfig(runtimeDir, dir, this.#options.trustProjectConfig);
    const key = JSON.stringify([config.store ?? null, config.artifacts ?? null]);
    let runtime = this.#runtimes.get(key);
    if (!runtime) {
      runtime = createRuntime({ workerRole: 'web', ...this.#options, workdir: dir });
      this.#runtimes.set(key, runtime);
      if (this.#started) this.#watches.push(this.#started(runtime));
    }
    return runtime;
  }

  /**
   * Runs `operation` on the runtime whose store holds the record: the server's own store first, then
   * every other store a request has reached. Throws the first store's not-found error if none has it.
   */
  async find<T>(operation: (runtime: Runtime) => Promise<T>): Promise<T> {
    const first = this.for();
    let missing: unknown;
    for (const runtime of [first, ...[...this.#runtimes.values()].filter((each) => each !== first)]) {
      try {
        return await operation(runtime);
      } catch (error) {
        if (!(KeelError.is(error) && notFound.has(error.code))) throw error;
        missing ??= error;
      }
    }
    throw missing;
  }

  async close(): Promise<void> {
    // The watches first: they use the runtimes' stores.
    await Promise.all(this.#watches.splice(0).map((watch) => watch.stop()));
    await Promise.all([...this.#runtimes.values()].map((runtime) => runtime.close().catch(() => undefined)));
    this.#runtimes.clear();
  }
}

/** False for anything that is not a reachable directory, including names the OS refuses (NUL, too long). */
function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}
