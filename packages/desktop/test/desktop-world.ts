import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const bin = new URL('../bin/keel-desktop.js', import.meta.url).pathname;
export const notificationDaemon = '/usr/lib/notification-daemon/notification-daemon';

/**
 * What the window test needs of the system, by Debian package: xvfb, imagemagick (import, identify),
 * x11-utils (xwininfo), dbus-daemon, dbus-bin (dbus-monitor), libnotify-bin (notify-send),
 * notification-daemon and libwebkit2gtk-4.1-0 (the window itself).
 */
export function missingPrograms(): string[] {
  const onPath = (name: string) =>
    (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, name)));
  const missing = [
    'Xvfb',
    'import',
    'identify',
    'xwininfo',
    'dbus-daemon',
    'dbus-monitor',
    'notify-send',
  ].filter((name) => !onPath(name));
  if (!existsSync(notificationDaemon)) missing.push('notification-daemon');
  if (!webkitInstalled()) missing.push('libwebkit2gtk-4.1-0');
  return missing;
}

function webkitInstalled(): boolean {
  try {
    return execFileSync('/sbin/ldconfig', ['-p'], { encoding: 'utf8' }).includes('libwebkit2gtk-4.1.so.0');
  } catch {
    return false;
  }
}

/** A program whose output lines a test waits on (events, never time). */
export class Program {
  readonly child: ChildProcess;
  output = '';
  readonly #waiters = new Set<() => void>();
  readonly exited: Promise<number | null>;

  constructor(command: string, args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const take = (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
      for (const waiter of this.#waiters) waiter();
    };
    this.child.stdout?.on('data', take);
    this.child.stderr?.on('data', take);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code) => {
        for (const waiter of this.#waiters) waiter();
        resolve(code);
      }),
    );
  }

  get pid(): number {
    return this.child.pid as number;
  }

  /** The first match of `pattern` in the output, once it is there (rejects if the program ends first). */
  line(pattern: RegExp, what = String(pattern), timeoutMs = 60_000): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => done(new Error(`timed out waiting for ${what}; output:\n${this.output}`)),
        timeoutMs,
      );
      const check = () => {
        const match = pattern.exec(this.output);
        if (match) return done(undefined, match);
        if (this.child.exitCode !== null || this.child.signalCode !== null) {
          done(
            new Error(
              `ended (${this.child.exitCode ?? this.child.signalCode}) before ${what}:\n${this.output}`,
            ),
          );
        }
      };
      const done = (error?: Error, match?: RegExpExecArray) => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        if (error) reject(error);
        else resolve(match as RegExpExecArray);
      };
      this.#waiters.add(check);
      check();
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    await this.exited;
  }
}

/** An X server of its own (`Xvfb -displayfd`: it says which display it took, no guessing a free one). */
export async function startXvfb(): Promise<{ display: string; program: Program }> {
  const program = new Program(
    'Xvfb',
    ['-displayfd', '1', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'],
    process.env,
  );
  const [, number] = await program.line(/^(\d+)$/m, 'Xvfb to say its display');
  return { display: `:${number}`, program };
}

/** A private session bus with a real notification daemon on it, and a monitor of what it is asked to show. */
export async function startNotifications(display: string, dir: string) {
  const bus = new Program(
    'dbus-daemon',
    ['--session', '--nofork', '--print-address=1', `--address=unix:path=${join(dir, 'bus')}`],
    process.env,
  );
  const [address] = await bus.line(/^unix:\S+$/m, 'the bus address');
  const env = { ...process.env, DISPLAY: display, DBUS_SESSION_BUS_ADDRESS: address };
  const daemon = new Program(notificationDaemon, [], env);
  const monitor = new Program(
    'dbus-monitor',
    ['--session', "interface='org.freedesktop.Notifications',member='Notify'"],
    env,
  );
  await monitor.line(/NameAcquired/, 'the monitor to listen');
  return { address, monitor, stop: () => Promise.all([monitor.stop(), daemon.stop(), bus.stop()]) };
}

/** Every process descended from `pid` now, from /proc (children of children too). */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const child of parents.get(parent) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie has exited; it only waits for its parent to read its status.
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The workbench services serving `home`, by their environment (/proc/<pid>/environ). */
export function workbenchesFor(home: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
        const environ = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
        return command.includes('keel-workbench.js') && environ.includes(`WORKBENCH_HOME=${home}`);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The names of the top-level windows of `display` (xwininfo's tree). */
export function windowNames(display: string): string[] {
  const tree = execFileSync('xwininfo', ['-root', '-tree'], {
    env: { ...process.env, DISPLAY: display },
    encoding: 'utf8',
  });
  return [...tree.matchAll(/^\s+0x[0-9a-f]+ "([^"]*)"/gm)].map((match) => match[1] as string);
}

/** A screenshot of the whole screen (ImageMagick's `import`), and how many colours it holds. */
export function screenshot(display: string, file: string): number {
  execFileSync('import', ['-window', 'root', file], { env: { ...process.env, DISPLAY: display } });
  return Number(execFileSync('identify', ['-format', '%k', file], { encoding: 'utf8' }));
}
