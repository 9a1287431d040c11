import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually } from '@keel/testkit';
import { describe, expect, it } from 'vitest';
import { findExecutable } from '../../../src/sandbox/index.ts';
import { tempDir } from '../helpers.ts';

// A worker killed outright (SIGKILL) mid-command must not leave the command running: after a recovery the
// same command would run twice at once. The holder is a real process running exec_command; the command's
// processes are found by a marker in their command lines (inside bubblewrap they have other pids).

const holder = join(import.meta.dirname, 'command-holder.ts');
const bwrap = await findExecutable('bwrap', process.env.PATH ?? '');

describe.skipIf(process.platform !== 'linux')('a command whose worker is killed with SIGKILL', () => {
  for (const sandboxed of [false, true]) {
    it.skipIf(sandboxed && bwrap === undefined)(
      `dies with it, background jobs included (${sandboxed ? 'bubblewrap' : 'no sandbox'})`,
      async () => {
        await using work = await tempDir();
        // A duration no other process on the machine sleeps for: the marker.
        const marker = `4${randomInt(100_000, 999_999)}.5`;
        const command = `sleep ${marker} & sleep ${marker}; wait`;
        const child = spawn(
          process.execPath,
          ['--conditions=@keel/source', holder, JSON.stringify({ workdir: work.path, sandboxed, command })],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        const exited = new Promise((resolve) => child.once('exit', resolve));
        try {
          // Both sleeps are running: the background job and the foreground one.
          await eventually(async () => (await sleepers(marker)).length === 2, {
            timeoutMs: 20_000,
            what: () => `the command's two sleeps to run; holder said: ${output}`,
          });
          const running = await processesWith(marker);
          child.kill('SIGKILL');
          await exited;
          let left: string[] = [];
          await eventually(
            async () => {
              left = await alive(running);
              return left.length === 0;
            },
            {
              timeoutMs: 10_000,
              what: () => `the command's processes to be gone; alive: ${left.join(' | ')}`,
            },
          );
          expect(await processesWith(marker)).toEqual([]);
        } finally {
          child.kill('SIGKILL');
          // Whatever a failed run left behind must not outlive the test.
          for (const { pid } of await processesWith(marker)) {
            try {
              process.kill(pid, 'SIGKILL');
            } catch {}
          }
        }
      },
      40_000,
    );
  }
});

interface Found {
  pid: number;
  args: string;
}

/** Live processes (not zombies) whose command line holds `marker`, from /proc. */
async function processesWith(marker: string): Promise<Found[]> {
  const found: Found[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const args = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (!args.includes(marker)) continue;
    if (await isLive(Number(entry))) found.push({ pid: Number(entry), args: args.replaceAll('\0', ' ') });
  }
  return found;
}

async function sleepers(marker: string): Promise<Found[]> {
  return (await processesWith(marker)).filter(({ args }) => args.trim() === `sleep ${marker}`);
}

/** Which of `processes` still run (by pid; a zombie no one has reaped yet counts as gone). */
async function alive(processes: Found[]): Promise<string[]> {
  const live: string[] = [];
  for (const { pid, args } of processes) if (await isLive(pid)) live.push(`${pid} ${args}`);
  return live;
}

async function isLive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  const state = stat?.slice(stat.lastIndexOf(')') + 2)[0];
  return state !== undefined && state !== 'Z' && state !== 'X';
}
