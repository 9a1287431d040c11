import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { notify, watchTasks } from './attention/index.ts';
import { desktopDir, workbenchHome } from './home.ts';
import {
  claimInstance,
  type InstanceAnswer,
  type InstanceRequest,
  instanceSocketPath,
} from './instance/index.ts';
import { openInBrowser } from './open-browser.ts';
import { rememberedPort, rememberPort } from './remembered-port.ts';
import {
  attachedService,
  findRunningWorkbench,
  startWorkbench,
  type WorkbenchService,
} from './service/index.ts';
import { version } from './version.ts';
import { type DesktopWindow, startWindowProcess, type WindowProcess } from './window/index.ts';

const usage = `Usage: keel-desktop [--task <id>] [--browser] [--notify | --no-notify]

The Keel workbench in a window of its own: starts the workbench for WORKBENCH_HOME (default ~/.workbench)
on a free loopback port, or uses the one already running there, and stops what it started when you quit.
A second launch for the same WORKBENCH_HOME brings the first window forward.

  --task <id>    show this task
  --browser      use the default browser instead of a window
  --notify       notify when a task needs you, whatever the page's own choice
  --no-notify    never notify (default: as the page's "Notify me when work ends" says)
  -V, --version  print the version
  -h, --help     print this help
`;

const say = (line: string) => process.stdout.write(`Keel desktop: ${line}\n`);

/** `keel-desktop`: answers the exit code once the user has quit (or at once, for a second launch). */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let flags: ReturnType<typeof parseFlags>;
  try {
    flags = parseFlags(argv);
  } catch (error) {
    process.stderr.write(`Error: ${(error as Error).message}\n${usage}`);
    return 2;
  }
  if (flags.help || flags.version) {
    process.stdout.write(flags.help ? usage : `${version}\n`);
    return 0;
  }
  if (flags.task !== undefined && !/^[A-Za-z0-9_-]{1,100}$/.test(flags.task)) {
    process.stderr.write(`Error: '${flags.task}' is not a task id\n`);
    return 2;
  }
  const home = workbenchHome(env);
  const shell = new DesktopShell(home, env, flags);
  const request: InstanceRequest = { type: 'focus', ...(flags.task ? { task_id: flags.task } : {}) };
  const socketPath = instanceSocketPath(home);
  const claim = await claimInstance(socketPath, request, (asked) => shell.answer(asked));
  if (!claim.first) {
    if (!claim.answer?.ok) {
      process.stderr.write(
        `Error: Keel desktop for ${home} did not answer: ${claim.answer?.error ?? 'no answer'}\n`,
      );
      return 1;
    }
    say(`already open for ${home} (pid ${claim.answer.pid}): brought its window forward`);
    return 0;
  }
  try {
    return await shell.run();
  } finally {
    claim.server.close();
    rmSync(socketPath, { force: true });
  }
}

function parseFlags(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      task: { type: 'string' },
      browser: { type: 'boolean' },
      notify: { type: 'boolean' },
      'no-notify': { type: 'boolean' },
      version: { type: 'boolean', short: 'V' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const notifications = values['no-notify'] ? 'never' : values.notify ? 'always' : 'as-page';
  return { task: values.task, browser: values.browser === true, notifications, ...values } as const;
}

/** The running shell: the service it shows, the window (or the browser), the notifications. */
class DesktopShell {
  readonly #home: string;
  readonly #env: NodeJS.ProcessEnv;
  readonly #flags: ReturnType<typeof parseFlags>;
  #service: WorkbenchService | undefined;
  #window: DesktopWindow | undefined;
  #quit: (code: number) => void = () => {};

  constructor(home: string, env: NodeJS.ProcessEnv, flags: ReturnType<typeof parseFlags>) {
    this.#home = home;
    this.#env = env;
    this.#flags = flags;
  }

  /** A second launch's request. */
  async answer(request: InstanceRequest): Promise<InstanceAnswer> {
    if (!this.#service) return { ok: false, error: 'still starting' };
    const page = this.#pageUrl(request.task_id);
    if (this.#window) this.#window.focus(request.task_id ? page : undefined);
    else await openInBrowser(page, this.#env);
    return { ok: true, url: this.#service.url, pid: process.pid };
  }

  async run(): Promise<number> {
    const stopped = new Promise<number>((resolve) => {
      this.#quit = resolve;
    });
    const onSignal = () => this.#quit(0);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('SIGHUP', onSignal);
    const dir = desktopDir(this.#home);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    let code = 1;
    // Started first: GTK and WebKit load while the service starts.
    const windowProcess = this.#flags.browser ? undefined : startWindowProcess(this.#env);
    try {
      this.#service = await this.#startOrAttach(dir).catch(async (error: unknown) => {
        await windowProcess?.discard();
        throw error;
      });
      const service = this.#service;
      service.onExit((exit) => {
        process.stderr.write(`Error: the workbench (pid ${service.pid}) ended by itself (exit ${exit})\n`);
        this.#quit(1);
      });
      await this.#show(dir, windowProcess);
      const watch = watchTasks({
        url: service.url,
        apiKey: this.#env.WORKBENCH_AUTH_API_KEY || undefined,
        onAttention: (task, attention) => void this.#notify(attention.title, attention.body, task.id),
        onWaiting: (count) => this.#window?.setAttention(count),
        onProblem: (message) => process.stderr.write(`Keel desktop: following the tasks: ${message}\n`),
      });
      code = await stopped;
      watch.stop();
    } catch (error) {
      process.stderr.write(`Error: ${(error as Error).message}\n`);
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('SIGHUP', onSignal);
      await this.#window?.close();
      if (this.#service?.owned) {
        await this.#service.stop();
        say(`stopped the workbench (pid ${this.#service.pid})`);
      }
    }
    return code;
  }

  async #startOrAttach(dir: string): Promise<WorkbenchService> {
    const running = await findRunningWorkbench(this.#home);
    if (running) {
      say(`using the workbench already running for ${this.#home}: ${running.url} (pid ${running.pid})`);
      return attachedService(running.url, running.pid);
    }
    const service = await startWorkbench({ env: this.#env, port: rememberedPort(dir) });
    rememberPort(dir, service.url);
    say(`started the workbench for ${this.#home}: ${service.url} (pid ${service.pid})`);
    return service;
  }

  /** The window, or where none can be shown here, the default browser. */
  async #show(dir: string, windowProcess: WindowProcess | undefined): Promise<void> {
    const url = this.#pageUrl(this.#flags.task);
    if (windowProcess) {
      let announced = false;
      const apiKey = this.#env.WORKBENCH_AUTH_API_KEY || undefined;
      const opened = await windowProcess.open(
        { url, dataDir: join(dir, 'webkit'), apiKey },
        {
          onPage: (heading) => {
            if (!announced) say(`window shows ${url} ("${heading}")`);
            announced = true;
          },
          onExternal: (link) => void openInBrowser(link, this.#env),
          onClosed: () => this.#quit(0),
        },
      );
      if (!('unavailable' in opened)) {
        this.#window = opened;
        say(`window open (pid ${opened.pid}); close it, or Ctrl-C here, to quit`);
        return;
      }
      say(`no window can be shown here: ${opened.unavailable}; using the default browser instead`);
    }
    if (await openInBrowser(url, this.#env)) say(`opened ${url} in the default browser; Ctrl-C here to quit`);
    else say(`open ${url} in your browser; Ctrl-C here to quit`);
  }

  async #notify(title: string, body: string, taskId: string): Promise<void> {
    const wanted =
      this.#flags.notifications === 'always' ||
      (this.#flags.notifications === 'as-page' && this.#window?.notifyChoice() === true);
    if (!wanted) return;
    if (await notify(title, body, this.#env)) say(`notified: ${title} (task ${taskId})`);
    else say(`could not notify (${title}): install notify-send (Debian: libnotify-bin)`);
  }

  #pageUrl(taskId: string | undefined): string {
    const base = (this.#service as WorkbenchService).url;
    return new URL(taskId ? `/tasks/${taskId}` : '/', base).href;
  }
}
