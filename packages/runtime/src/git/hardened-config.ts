import { gitEnv } from './git-env.ts';
import { spawnCollect } from './spawn-collect.ts';

/**
 * Command-scope config for every git command Keel runs. Command scope is read after the system,
 * global and repository files, so each of these wins over whatever a model wrote into a workspace's
 * `.git/config` (or a file it includes). Each key names a way a repository's config could make git run a
 * program: hooks, the fsmonitor, pager, editor, askpass, ssh, signing programs, credential helpers,
 * background gc/maintenance. The user's *global* signing setup is not carried over: workbench commits are
 * unsigned (as are the runtime's task branches, which commit nothing). The network keys (ssh, credentials) only matter for the push, which never reads a workspace's
 * config at all (the workbench's `push-branch.ts`); they are reset here for every other command as a second fence.
 */
export const hardenedConfig: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.editor', 'true'],
  ['sequence.editor', 'true'],
  ['core.askPass', ''],
  ['core.sshCommand', 'ssh'],
  // An empty value empties the list of helpers, URL-scoped ones (`credential.<url>.helper`) included.
  ['credential.helper', ''],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['push.gpgSign', 'false'],
  ['gpg.program', 'gpg'],
  ['gpg.openpgp.program', 'gpg'],
  ['gpg.x509.program', 'gpgsm'],
  ['gpg.ssh.program', 'ssh-keygen'],
  ['submodule.recurse', 'false'],
  ['fetch.recurseSubmodules', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
];

/**
 * Commands that never read file contents through a filter or spawn a transport. Any other (`add`,
 * `write-tree`, `diff`, `read-tree -u`, `reset`, `commit`, ... may clean or smudge a file) is run with the
 * named overrides below.
 */
const filterFreeCommands = new Set([
  'rev-parse',
  'config',
  'symbolic-ref',
  'show-ref',
  'update-ref',
  'commit-tree',
  'for-each-ref',
  'check-ref-format',
  'init',
  'clone',
  'push',
]);

/**
 * Overrides for the command keys whose name the repository chooses (`filter.<driver>.clean`, `.smudge`,
 * `.process`, `remote.<name>.uploadpack`, `.receivepack`): they cannot be listed in advance, so for a command
 * that may use them the repository's config is asked which exist, and each is reset. An empty filter
 * command means "no filter" to git; `required` is cleared so a file with a neutralised filter still adds.
 */
export async function namedCommandOverrides(
  cwd: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<[string, string][]> {
  const command = subcommand(args);
  if (command === undefined || filterFreeCommands.has(command)) return [];
  const run = await spawnCollect(
    'git',
    ['config', '-z', '--name-only', '--get-regexp', '^(filter|remote)\\.'],
    {
      cwd,
      env: gitEnv(env, { config: hardenedConfig }),
      timeoutMs: 30_000,
      maxStdoutBytes: 4 * 1024 * 1024,
    },
  );
  const overrides: [string, string][] = [];
  for (const key of run.stdout.toString('utf8').split('\0')) {
    const last = key.lastIndexOf('.');
    const variable = key.slice(last + 1).toLowerCase();
    const section = key.slice(0, key.indexOf('.')).toLowerCase();
    const base = key.slice(0, last);
    if (section === 'filter' && ['clean', 'smudge', 'process'].includes(variable)) {
      overrides.push([`${base}.${variable}`, ''], [`${base}.required`, 'false']);
    } else if (section === 'remote' && variable === 'uploadpack') {
      overrides.push([key, 'git-upload-pack']);
    } else if (section === 'remote' && variable === 'receivepack') {
      overrides.push([key, 'git-receive-pack']);
    }
  }
  return overrides;
}

/** The git command of `args`, after global options (`-c key=value` takes the next argument). */
function subcommand(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-c' || arg === '-C') i++;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}
