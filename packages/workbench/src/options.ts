import type { ServiceLog } from '@keel/service';
import type { PreviewTimings } from './previews/index.ts';
import type { RunnerRegistry } from './runners/index.ts';
import type { WorkbenchStore } from './store/index.ts';
import type { StageModule } from './tasks/index.ts';

/** How a workbench is made: `createWorkbench(options)`. */
export interface WorkbenchOptions {
  /** Data directory; default `WORKBENCH_HOME` from `env`, else `~/.workbench`. */
  home?: string;
  /** The environment the workbench reads (default `process.env`); also passed to the Keel runner. */
  env?: Record<string, string | undefined>;
  /** First wait between two reads of a submitted merge request, in ms (default 30 s, doubling to 10 min). */
  mergeRequestPollMs?: number;
  /**
   * The store of every record (any dialect of `WorkbenchStore`; the workbench closes it on close). Default:
   * PostgreSQL when `WORKBENCH_DATABASE_URL` is set (`@keel/store-postgres`), else SQLite in the data
   * directory.
   */
  store?: WorkbenchStore;
  /** Replaces the runner registry (tests, embedding); default: the built-in runners. */
  runners?: RunnerRegistry;
  /**
   * The stages of the task flow, in order (default `defaultStages`: the spec's five); a stage defined
   * anywhere goes in with `withStage(defaultStages, stage, {before: 'review'})`. Their numbers, the table of
   * moves (each `to: 'next'` the following stage's first state), `GET /api/flow`, the stages' routes and
   * hand-offs are built from it (README: "Adding a stage").
   */
  stages?: readonly StageModule[];
  /** Port `listen()` uses when given none (default 8000; 0 = any free port). */
  port?: number;
  /** Address `listen()` uses (default 127.0.0.1: loopback unless told otherwise). */
  host?: string;
  /** Host names answered besides loopback, over `WORKBENCH_ALLOWED_HOSTS` (`--allowed-host`). */
  allowedHosts?: string[];
  /** Lets `listen()` bind beyond loopback without `WORKBENCH_AUTH_API_KEY` (`--insecure-no-auth`). */
  insecureNoAuth?: boolean;
  /** Fastify's request log (default off). */
  logger?: boolean;
  /**
   * The service log (`keel-workbench run` makes one: stderr and `logs/workbench.log`): answers of 500 and
   * background failures (a knowledge layer, an init step, a todo, a session…) with their ids. Default none.
   */
  serviceLog?: ServiceLog;
  /**
   * Largest request body in bytes (default 40 MiB: tasks carry base64 images). A larger one is answered
   * 413 PAYLOAD_TOO_LARGE, which the client receives once it has sent the body (up to 4 times the limit;
   * see @keel/service).
   */
  bodyLimit?: number;
  /** The built SPA to serve at `/` (default: `dist/` of the installed `@keel/workbench-web`). */
  spaDir?: string;
  /** A preview's stop grace period and port probe interval (default 5 s and 250 ms; tests shorten them). */
  previewTimings?: PreviewTimings;
}
