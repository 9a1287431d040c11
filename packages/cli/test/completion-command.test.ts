import { execFile, spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTempDir } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { keel } from './keel-process.ts';

const run = promisify(execFile);
const installed = (shell: string) => spawnSync(shell, ['--version']).status === 0;

/** `keel completion <shell>` written to a file in `dir`, as a user installs it. */
async function script(shell: string, dir: string): Promise<string> {
  const out = await keel(['completion', shell]);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  const file = join(dir, `keel.${shell}`);
  await writeFile(file, out.stdout);
  return file;
}

/**
 * What bash's completion proposes for each command line (the last word being completed): the script's
 * function called as bash calls it, with COMP_WORDS and COMP_CWORD set.
 */
async function bashProposals(
  file: string,
  lines: string[][],
): Promise<{ registered: string; proposals: string[] }> {
  const calls = lines.map((words) => `propose ${words.map((word) => `'${word}'`).join(' ')}`).join('\n');
  const { stdout } = await run('bash', [
    '--norc',
    '-c',
    `source '${file}'
complete -p keel
propose() { COMP_WORDS=("$@"); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _keel; echo "\${COMPREPLY[*]}"; }
${calls}`,
  ]);
  const [registered = '', ...proposals] = stdout.split('\n');
  return { registered, proposals: proposals.slice(0, lines.length) };
}

/**
 * zsh's real completion system (compinit) in an interactive zsh on a pseudo-terminal (zpty): the line is
 * typed, then Tab; every compadd call's candidates are written to a file, one call a line.
 */
const zshCapture = `zmodload zsh/zpty
zpty z zsh -f -i
send() { zpty -w z "$1"; zpty -r z out '*READY>*' }
send "PROMPT='READY>'; autoload -U compinit; compinit -u -D"
zpty -r z out '*READY>*'
send "source $1"
send 'compadd () { builtin compadd -O __hits "$@"; print -r -- "\${(j: :)__hits}" >> '"$3"'; builtin compadd "$@" }'
zpty -w -n z "$2"$'\\t'
zpty -w z $'\\C-u print DONE-MARK'
zpty -r z out '*DONE-MARK*DONE-MARK*'
zpty -d z
`;

async function zshProposals(file: string, dir: string, line: string): Promise<string[]> {
  const capture = join(dir, 'capture.zsh');
  const output = join(dir, `proposals-${line.replaceAll(/\W/g, '_')}`);
  await writeFile(capture, zshCapture);
  await writeFile(output, '');
  await run('zsh', ['-f', capture, file, line, output], { timeout: 20_000 });
  return [...new Set((await readFile(output, 'utf8')).split(/\s+/).filter(Boolean))].sort();
}

/** fish's own answer for a command line (`complete -C`): the candidates, without descriptions. */
async function fishProposals(file: string, line: string): Promise<string[]> {
  const { stdout } = await run('fish', ['--no-config', '-c', `source '${file}'; complete -C '${line}'`]);
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((entry) => entry.split('\t')[0]!)
    .sort();
}

describe('keel completion', () => {
  test('--help says how to install the script for each shell; an unknown shell is refused', async () => {
    const help = await keel(['completion', '--help']);
    expect(help.stdout).toContain('Usage: keel completion [options] <shell>');
    expect(help.stdout).toContain('source <(keel completion bash)');
    expect(help.stdout).toContain('source <(keel completion zsh)');
    expect(help.stdout).toContain('keel completion fish > ~/.config/fish/completions/keel.fish');

    const tcsh = await keel(['completion', 'tcsh']);
    expect(tcsh.stderr).toContain(
      "'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.",
    );
    expect(tcsh.code).toBe(1);
    // keel --help lists it.
    expect((await keel(['--help'])).stdout).toMatch(/completion <shell> +Print a completion script/);
  });

  test('bash: registered for keel; proposes commands, subcommands and options from the real tree', async () => {
    await using dir = await createTempDir();
    const file = await script('bash', dir.path);
    const { registered, proposals } = await bashProposals(file, [
      ['keel', 'ru'],
      ['keel', 'runs', ''],
      ['keel', 'run', '--mo'],
      ['keel', 'run', '-w', '/tmp', '--model', 'x', 'runs', '--js'],
      ['keel', 'run', '--model', ''],
      ['keel', 'doctor', '--'],
      ['keel', 'help', 'com'],
    ]);

    expect(registered).toBe('complete -o default -F _keel keel');
    expect(proposals).toEqual([
      'run runs',
      'list show watch metrics cancel pause input resume retry recover fork help',
      '--model --model-base-url',
      // Option values skipped; `runs` is the prompt of `keel run` there, not a command.
      '--json',
      // An option's value: bash's default (file names) takes over.
      '',
      '--workdir --json --help',
      'completion',
    ]);
  });

  test.skipIf(!installed('zsh'))('zsh: compinit completes commands, subcommands and options', async () => {
    await using dir = await createTempDir();
    const file = await script('zsh', dir.path);
    expect(spawnSync('zsh', ['-n', file]).status).toBe(0);

    expect(await zshProposals(file, dir.path, 'keel ru')).toEqual(['run', 'runs']);
    expect(await zshProposals(file, dir.path, 'keel runs ')).toEqual([
      'cancel',
      'fork',
      'help',
      'input',
      'list',
      'metrics',
      'pause',
      'recover',
      'resume',
      'retry',
      'show',
      'watch',
    ]);
    expect(await zshProposals(file, dir.path, 'keel run --mo')).toEqual(['--model', '--model-base-url']);
  });

  test.skipIf(!installed('fish'))(
    'fish: complete -C proposes commands, subcommands and options',
    async () => {
      await using dir = await createTempDir();
      const file = await script('fish', dir.path);
      expect(spawnSync('fish', ['--no-execute', file]).status).toBe(0);

      expect(await fishProposals(file, 'keel ru')).toEqual(['run', 'runs']);
      expect(await fishProposals(file, 'keel runs ')).toEqual([
        'cancel',
        'fork',
        'help',
        'input',
        'list',
        'metrics',
        'pause',
        'recover',
        'resume',
        'retry',
        'show',
        'watch',
      ]);
      expect(await fishProposals(file, 'keel run --mo')).toEqual(['--model', '--model-base-url']);
      expect(await fishProposals(file, 'keel run -w /tmp --model x runs --js')).toEqual(['--json']);
    },
  );
});
