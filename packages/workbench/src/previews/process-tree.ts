import { readdirSync, readFileSync } from 'node:fs';

// The processes a preview started, found by their parent links in /proc (Linux): a sandbox's processes run
// in a session and a PID namespace of their own, so a signal to the process group the workbench started
// does not reach them, though they are there under their host ids.

/** The ids of every living descendant of `root` (not `root` itself); none where there is no /proc. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(entry);
    if (parent === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const queue = [root];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** The parent id of process `pid`, from /proc/<pid>/stat (the name in parentheses may hold spaces). */
function parentOf(pid: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

/** Sends `signal` to each of `pids`, and to the group `group` leads when given; what is gone is skipped. */
export function signalAll(pids: readonly number[], signal: NodeJS.Signals, group?: number): void {
  const targets = group === undefined ? pids : [-group, ...pids];
  for (const pid of targets) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}
