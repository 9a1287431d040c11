import { spawn } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** What a stopped command gets after SIGTERM before SIGKILL. */
const killGraceMs = 1000;
/** After a command exits, how long what it left holding its pipes may keep them open. */
const drainMs = 500;

/**
 * `POST …/exec`: starts `argv` in its own process group and streams NDJSON to `res`: `{"exec_id"}` first,
 * then `{"stream","data"}` lines as output arrives, then `{"exit_code","signal"}`. The command is stopped,
 * with everything it started, when `stop` is called or the client goes away. `onEnd` runs once it ended.
 */
export function streamCommand(options: {
  execId: string;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  res: ServerResponse;
  onStart: (stop: () => void) => void;
  onEnd: () => void;
}): void {
  const { execId, argv, res } = options;
  res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
  const line = (value: unknown) => {
    if (!res.writableEnded && !res.destroyed) res.write(`${JSON.stringify(value)}\n`);
  };
  line({ exec_id: execId });

  const child = spawn(argv[0] as string, argv.slice(1), {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let finished = false;
  let escalation: NodeJS.Timeout | undefined;
  let spawnError: NodeJS.ErrnoException | undefined;
  const signalGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      // A negative pid addresses the whole process group the detached child leads.
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  const stop = () => {
    if (finished || escalation) return;
    signalGroup('SIGTERM');
    escalation = setTimeout(() => signalGroup('SIGKILL'), killGraceMs);
  };
  options.onStart(stop);

  const streams: [string, Readable][] = [
    ['stdout', child.stdout],
    ['stderr', child.stderr],
  ];
  for (const [name, stream] of streams) {
    const decoder = new StringDecoder('utf8');
    stream.on('data', (chunk: Buffer) => {
      const data = decoder.write(chunk);
      if (data !== '') line({ stream: name, data });
    });
    stream.on('end', () => {
      const data = decoder.end();
      if (data !== '') line({ stream: name, data });
    });
  }
  child.on('error', (error: NodeJS.ErrnoException) => {
    spawnError = error;
  });
  child.on('exit', () => {
    // What the command left running in the background would outlive it: the group goes with it.
    signalGroup('SIGKILL');
    setTimeout(() => {
      for (const [, stream] of streams) stream.destroy();
    }, drainMs).unref();
  });
  child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
    if (finished) return;
    finished = true;
    clearTimeout(escalation);
    if (spawnError) {
      const reason = spawnError.code === 'ENOENT' ? 'command not found' : spawnError.message;
      line({ stream: 'stderr', data: `${argv[0]}: ${reason}\n` });
      line({ exit_code: 127, signal: null });
    } else {
      line({ exit_code: code, signal });
    }
    if (!res.writableEnded && !res.destroyed) res.end();
    options.onEnd();
  });
  // The client went away (killed, timed out): the command must not run on unseen.
  res.on('close', () => {
    if (!finished) stop();
  });
}
