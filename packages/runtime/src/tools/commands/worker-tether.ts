// Commands die with the process that started them (docs/decisions/2026-11-28-commands-die-with-their-worker.md).
//
// A command runs in its own process group, which the runner stops on a timeout, a cancellation or the
// command's end. A worker killed outright (SIGKILL, the OOM killer) stops nothing: its commands would run
// on while a recovered run starts the same command again elsewhere. So each command is started under a
// tether: a `sh` that forks a watcher into the command's group, then execs the command in its own place
// (same pid, still the group's leader). The watcher blocks reading a pipe whose other end only this process
// holds; the kernel closes that end when this process dies, however it dies, and the watcher then stops
// the whole group as the runner would: SIGTERM, a grace, SIGKILL.

/** Where the command finds its end of the tether: the fd after stdin, stdout and stderr. */
export const tetherFd = 3;

// The watcher ignores the TERM it sends its own group, so it lives to send the KILL after the grace.
// Its output goes nowhere: it must not hold the command's output pipes open. The command does not get
// fd 3 (`3<&-`), so neither it nor what it starts can keep the tether up.
const script =
  'grace=$1; shift; ' +
  `(trap '' TERM; read -r _ <&${tetherFd}; kill -s TERM 0; sleep "$grace"; kill -s KILL 0) ` +
  `</dev/null >/dev/null 2>&1 & exec "$@" ${tetherFd}<&-`;

/** Whether commands can be tethered here: a POSIX `sh` and process groups (not Windows). */
export const canTether = process.platform !== 'win32';

/**
 * The argv that runs `argv` tethered to this process: spawn it detached (its own process group) with a
 * pipe at fd 3 (`tetherFd`) that nothing writes to. `graceMs` is how long the command gets between the
 * SIGTERM and the SIGKILL (whole seconds, at least one).
 */
export function tetheredArgv(argv: readonly string[], graceMs: number): string[] {
  const graceSeconds = Math.max(1, Math.ceil(graceMs / 1000));
  return ['/bin/sh', '-c', script, 'keel-command', String(graceSeconds), ...argv];
}
