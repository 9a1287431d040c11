// The program exec_command runs when sandbox.backend is "remote" (RemoteSandbox.wrap builds its command
// line): syncs the workdir up to the remote sandbox, runs the command there with its output streamed
// back, brings the changes down, and exits with the command's exit code. See docs/remote-sandbox.md.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { constants } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { type RemoteEntry, RemoteSandboxApi, tokenVariable } from './remote-api.ts';
import { type HashCache, isExcluded, isSafePath, listLocal } from './remote-manifest.ts';
import { download, upload } from './remote-sync.ts';

/** The exit code when the sandbox itself failed (unreachable, refused): as `docker run` does. */
const sandboxFailed = 125;
/** What the remote command gets besides its sandbox's own environment: nothing may wait for a human. */
const commandEnv = { GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', PAGER: 'cat' };

interface State {
  sandbox_id?: string;
  hashes: HashCache;
}

type Phase = 'sync' | 'exec' | 'download';

async function main(args: string[]): Promise<number> {
  const { values, positionals: argv } = parseArgs({
    args,
    options: {
      url: { type: 'string' },
      root: { type: 'string' },
      cwd: { type: 'string', default: '' },
      state: { type: 'string' },
      network: { type: 'string', default: 'none' },
      'idle-timeout': { type: 'string' },
      exclude: { type: 'string', multiple: true, default: [] },
    },
    allowPositionals: true,
  });
  const { url, root, state: statePath } = values;
  if (!url || !root || !statePath || argv.length === 0) {
    throw new Error('usage: remote-client --url U --root DIR --state FILE [--cwd REL] -- PROGRAM [ARGS...]');
  }
  const api = new RemoteSandboxApi(url, process.env[tokenVariable] || undefined);
  const exclude = new Set(['.git', ...values.exclude]);
  const state = await loadState(statePath);

  // The sandbox of this workdir, made on first use and reused while the provider keeps it.
  let sandboxId = state.sandbox_id ?? '';
  let phase: Phase = 'sync';
  let stopSignal: NodeJS.Signals | undefined;
  const streamClosed = new AbortController();
  let execId: string | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopSignal) return;
    stopSignal = signal;
    // Half a sync is harmless (the next command's sync completes it); a download stops between files.
    if (phase === 'sync') process.exit(128 + constants.signals[signal]);
    if (phase !== 'exec') return;
    const kill = execId ? api.kill(sandboxId, execId, AbortSignal.timeout(800)) : Promise.resolve();
    // Closing the stream stops the command too, on a server that never saw the kill.
    void kill.catch(() => undefined).finally(() => streamClosed.abort());
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, onSignal);

  let listing = sandboxId ? await api.list(sandboxId).catch(notFound) : undefined;
  if (!listing) {
    const idle = Number(values['idle-timeout']);
    const created = await api.create({
      network: values.network === 'host' ? 'host' : 'none',
      ...(Number.isInteger(idle) && idle > 0 ? { idle_timeout_s: idle } : {}),
    });
    sandboxId = created.id;
    state.sandbox_id = sandboxId;
    await saveState(statePath, state);
    listing = await api.list(sandboxId);
  }
  const local = await listLocal(root, exclude, state.hashes);
  for (const path of Object.keys(state.hashes)) if (!local.has(path)) delete state.hashes[path];
  await upload(api, sandboxId, root, local, entriesOf(listing, exclude));

  phase = 'exec';
  const end = await api
    .exec(
      sandboxId,
      { argv, cwd: values.cwd, env: commandEnv },
      (line) => {
        if ('exec_id' in line) execId = line.exec_id;
        else if ('stream' in line)
          (line.stream === 'stderr' ? process.stderr : process.stdout).write(line.data);
      },
      streamClosed.signal,
    )
    .catch((error: unknown) => {
      if (stopSignal) return undefined;
      throw error;
    });
  // Stopped (a timeout, a cancelled run): nothing comes back; the next command's sync resets the sandbox.
  if (!end || stopSignal) return 128 + constants.signals[stopSignal ?? 'SIGTERM'];

  phase = 'download';
  const after = entriesOf(await api.list(sandboxId), exclude);
  const result = await download({
    api,
    id: sandboxId,
    root,
    sent: local,
    after,
    cache: state.hashes,
    stopping: () => stopSignal !== undefined,
  });
  for (const path of result.kept) {
    process.stderr.write(
      `keel remote sandbox: kept the local ${path}: it changed here while the command ran, so the remote change was not copied back\n`,
    );
  }
  await saveState(statePath, state);
  if (result.stopped) return 128 + constants.signals[stopSignal ?? 'SIGTERM'];
  if (end.exit_code !== null) return end.exit_code;
  const signalNumber = constants.signals[end.signal as NodeJS.Signals];
  return signalNumber === undefined ? 1 : 128 + signalNumber;
}

/** A listing as a map, without excluded paths; a path that would leave the workdir is refused outright. */
function entriesOf(entries: RemoteEntry[], exclude: ReadonlySet<string>): Map<string, RemoteEntry> {
  const map = new Map<string, RemoteEntry>();
  for (const entry of entries) {
    if (!isSafePath(entry?.path)) {
      throw new Error(`the sandbox listed a path outside its workdir: ${JSON.stringify(entry?.path)}`);
    }
    if (!isExcluded(entry.path, exclude)) map.set(entry.path, entry);
  }
  return map;
}

function notFound(error: { status?: number }): undefined {
  if (error.status === 404) return undefined;
  throw error;
}

async function loadState(path: string): Promise<State> {
  try {
    const state = JSON.parse(await readFile(path, 'utf8')) as Partial<State>;
    return { ...state, hashes: state.hashes ?? {} };
  } catch {
    return { hashes: {} };
  }
}

/** Written beside and renamed over: a client killed meanwhile leaves the previous state, never half of one. */
async function saveState(path: string, state: State): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${randomBytes(4).toString('hex')}`;
  await writeFile(temp, JSON.stringify(state), { mode: 0o600 });
  await rename(temp, path);
}

/** Exits once what was written to stdout and stderr has gone out. */
async function exit(code: number): Promise<never> {
  await Promise.all(
    [process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))),
  );
  process.exit(code);
}

main(process.argv.slice(2)).then(exit, async (error: unknown) => {
  process.stderr.write(`keel remote sandbox: ${(error as Error).message ?? String(error)}\n`);
  await exit(sandboxFailed);
});
