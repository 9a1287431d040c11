import { resolve } from 'node:path';
import { KeelError, PermissionDeniedError } from '../../errors/index.ts';
import type { PathGuard } from '../path-guard.ts';
import { invocationsOf } from './command-invocations.ts';
import { type TouchedPath, touchedPaths, writesUnseenOperands } from './command-paths.ts';

/**
 * Refuses a command that would write outside the boundary the file tools keep (the workdir and the
 * allowed roots): through a redirection, the operands of a program that writes files, an output option,
 * `git -C`, a link, or a `cd` out of it. A path only known when the shell runs (`$HOME/x`) is refused too,
 * since it cannot be checked. Called with a command the policy already allowed, before it runs.
 */
export async function assertConfined(command: string, guard: PathGuard, cwd: string): Promise<void> {
  const invocations = invocationsOf(command);
  // Where relative paths may be taken from: the command's directory, and wherever a `cd` in it goes.
  const bases = [cwd];
  let unknownBase = false;
  for (const invocation of invocations) {
    if (writesUnseenOperands(invocation)) {
      refuse(
        command,
        invocation.text,
        'writes to paths xargs hands it, which cannot be checked before it runs',
      );
    }
    for (const touched of touchedPaths(invocation)) {
      const cd = /^(?:cd|pushd) /.test(touched.why);
      const checked = await checkPath(touched, bases, unknownBase, guard);
      if (checked.protectedPath) refuseProtected(command, invocation.text, checked.refusal!);
      if (checked.refusal) refuse(command, invocation.text, checked.refusal);
      if (cd) {
        if (checked.path === undefined) unknownBase = true;
        else bases.push(checked.path);
      }
    }
  }
}

async function checkPath(
  touched: TouchedPath,
  bases: string[],
  unknownBase: boolean,
  guard: PathGuard,
): Promise<{ refusal?: string; path?: string; protectedPath?: boolean }> {
  const text = staticPart(touched.word.text, touched.word.dynamic);
  if (text === undefined) {
    return {
      refusal: `writes to '${touched.word.text}', a path only known when the shell runs (${touched.why})`,
    };
  }
  if (text.startsWith('~')) {
    return { refusal: `writes under '${touched.word.text}', the home directory (${touched.why})` };
  }
  if (unknownBase && !text.startsWith('/')) {
    return { refusal: `writes to '${text}' after a cd the command check cannot follow (${touched.why})` };
  }
  let last: string | undefined;
  for (const base of bases) {
    try {
      last = await guard.resolve(resolve(base, text), 'write');
    } catch (error) {
      if (!KeelError.is(error) || error.code !== 'PERMISSION_DENIED') throw error;
      if (error.details?.reason === 'protected_path') return { refusal: error.message, protectedPath: true };
      return {
        refusal: `writes to '${touched.word.text}', outside the working directory and allowed roots (${touched.why})`,
      };
    }
  }
  return { path: last };
}

/**
 * The part of a word that can be checked before the shell runs: the whole word when it is static; for a
 * glob, the directory before its first pattern character (`../*.txt` → `..`); undefined for variables and
 * substitutions.
 */
function staticPart(text: string, dynamic: boolean): string | undefined {
  if (!dynamic) return text;
  if (/[$`]/.test(text)) return undefined;
  const firstPattern = text.search(/[*?[]/);
  if (firstPattern === -1) return text;
  const slash = text.lastIndexOf('/', firstPattern);
  return slash === -1 ? '.' : text.slice(0, slash) || '/';
}

/** A write into a protected path (`.git/config`, `.runtime/`): the path guard's own words and reason. */
function refuseProtected(command: string, segment: string, guardMessage: string): never {
  throw new PermissionDeniedError(
    `Command refused: "${segment}" writes to a protected path. ${guardMessage}`,
    {
      command,
      segment,
      reason: 'protected_path',
    },
  );
}

function refuse(command: string, segment: string, reason: string): never {
  throw new PermissionDeniedError(
    `Command refused: "${segment}" ${reason}. File access is confined to the working directory and the ` +
      'allowed roots; write inside them, or ask the user to add a root to security.allowed_roots.',
    { command, segment, reason },
  );
}
