import { execFileSync } from 'node:child_process';
import { eventually } from '@keel/testkit';

/** A process on this machine, as `ps` lists it. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  state: string;
  args: string;
}

// The programs a language server runs as: the servers themselves and the tsserver (and its helpers) under
// typescript-language-server.
const serverPattern = /typescript-language-server|tsserver|typingsInstaller|pyright/;

function processes(): ProcessInfo[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,ppid=,stat=,args='], { encoding: 'utf8' });
  return listing.split('\n').flatMap((line) => {
    const match = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (!match) return [];
    return [{ pid: Number(match[1]), ppid: Number(match[2]), state: match[3] ?? '', args: match[4] ?? '' }];
  });
}

/**
 * The language-server processes started by this test process (its descendants; vitest runs each test
 * file in a process of its own, so other files' servers are not counted). Zombies are not counted.
 */
export function languageServerProcesses(): ProcessInfo[] {
  const all = processes();
  const ours = new Set([process.pid]);
  // Parents are listed before children almost always; loop until no new descendant turns up.
  for (let grew = true; grew; ) {
    grew = false;
    for (const info of all) {
      if (ours.has(info.ppid) && !ours.has(info.pid)) {
        ours.add(info.pid);
        grew = true;
      }
    }
  }
  return all.filter(
    (info) => ours.has(info.pid) && !info.state.startsWith('Z') && serverPattern.test(info.args),
  );
}

/**
 * Waits until none of `pids` runs any more (also those reparented away from this process when their
 * parent exited): what proves no server process leaked.
 */
export async function expectGone(pids: readonly number[], timeoutMs = 10_000): Promise<void> {
  const alive = () => {
    const running = new Set(
      processes()
        .filter((info) => !info.state.startsWith('Z'))
        .map((info) => info.pid),
    );
    return pids.filter((pid) => running.has(pid));
  };
  await eventually(() => alive().length === 0, {
    timeoutMs,
    intervalMs: 100,
    what: () => `the language-server processes to end; still running: ${alive().join(', ')}`,
  });
}
