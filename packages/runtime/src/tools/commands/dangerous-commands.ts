import { posix } from 'node:path';
import { type Invocation, programName } from './command-invocations.ts';

/**
 * The built-in block list: commands that can destroy the machine or its data whatever the allow-list
 * says. Each rule returns why it refuses, or undefined. `security.blocked_commands` adds to this.
 */
export function dangerOf(invocation: Invocation): string | undefined {
  for (const rule of rules) {
    const reason = rule(invocation);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/** A fork bomb (`:(){ :|:& };:` and its renamed forms): a function that pipes into itself. */
export function isForkBomb(source: string): boolean {
  const squeezed = source.replace(/\s+/g, '');
  return /([^\s(){};|&]+)\(\)\{[^}]*\1\|\1/.test(squeezed);
}

// Disk devices: writing to them raw destroys every file system on the disk.
const diskDevice = /^\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|dm-\d|md\d|mapper\/)/;
const formatters = /^(?:mkfs(?:\..+)?|mke2fs|mkswap|wipefs)$/;
const writesFiles = new Set(['tee', 'cp', 'mv', 'shred', 'install', 'truncate']);
const powerCommands = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);

const rules: ((invocation: Invocation) => string | undefined)[] = [
  ({ words }) => {
    if (programName(words[0]) !== 'rm') return undefined;
    const { options, operands } = splitArgs(words.slice(1).map((word) => word.text));
    if (options.includes('--no-preserve-root')) return 'removes files with --no-preserve-root';
    const recursive = options.some((option) => option === '--recursive' || /^-[^-]*[rR]/.test(option));
    const target = operands.find(isSystemRoot);
    return recursive && target ? `recursively deletes ${target}` : undefined;
  },
  ({ words }) => {
    const name = programName(words[0]);
    if (!['chmod', 'chown', 'chgrp'].includes(name)) return undefined;
    const { options, operands } = splitArgs(words.slice(1).map((word) => word.text));
    const recursive = options.some((option) => option === '--recursive' || /^-[^-]*R/.test(option));
    const target = operands.find(isSystemRoot);
    return recursive && target ? `recursively changes the ownership or permissions of ${target}` : undefined;
  },
  ({ words }) => {
    if (programName(words[0]) !== 'dd') return undefined;
    const output = words.find((word) => word.text.startsWith('of='))?.text.slice(3);
    return output && diskDevice.test(output) ? `writes raw data to the disk device ${output}` : undefined;
  },
  ({ words }) => {
    const name = programName(words[0]);
    return formatters.test(name) ? `${name} formats or wipes a file system` : undefined;
  },
  ({ words, redirects }) => {
    const redirected = redirects.find(
      (redirect) =>
        /^(?:>|>>|>\||&>|&>>|<>)$/.test(redirect.operator) && diskDevice.test(redirect.target.text),
    );
    if (redirected) return `writes to the disk device ${redirected.target.text}`;
    if (!writesFiles.has(programName(words[0]))) return undefined;
    const device = words.slice(1).find((word) => diskDevice.test(word.text));
    return device ? `writes to the disk device ${device.text}` : undefined;
  },
  ({ words }) => {
    const name = programName(words[0]);
    return powerCommands.has(name) ? `${name} stops or restarts the machine` : undefined;
  },
];

function splitArgs(args: string[]): { options: string[]; operands: string[] } {
  const end = args.indexOf('--');
  const before = end === -1 ? args : args.slice(0, end);
  const after = end === -1 ? [] : args.slice(end + 1);
  return {
    options: before.filter((arg) => arg.startsWith('-') && arg !== '-'),
    operands: [...before.filter((arg) => !arg.startsWith('-') || arg === '-'), ...after],
  };
}

/**
 * True for `/`, a directory right below it (`/usr`, `/*`), and the home directory (`~`, `~/`, `$HOME`):
 * the places whose recursive removal no coding task needs.
 */
function isSystemRoot(target: string): boolean {
  const home = /^(?:~[^/]*|\$HOME|\$\{HOME\})(\/.*)?$/.exec(target);
  if (home) {
    const rest = posix.normalize(`/${home[1] ?? ''}`);
    return rest === '/' || rest === '/*' || rest === '/.*';
  }
  if (!target.startsWith('/')) return false;
  const normal = posix.normalize(target).replace(/\/+$/, '');
  return normal === '' || /^\/[^/]+$/.test(normal);
}
