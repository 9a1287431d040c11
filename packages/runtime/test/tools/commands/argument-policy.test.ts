// The argument table (issue #22): programs the policy allows may still run another program, or write,
// through an argument (`rg --pre`, `node -e`, `find -exec`, `uniq IN OUT`, …). Each such form is really run
// through exec_command, is refused naming the program, the argument and why, and leaves no marker outside;
// run three ways like confinement.test.ts: the policy alone, the policy inside bubblewrap, bubblewrap alone.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { KeelError } from '../../../src/index.ts';
import { createSandbox, findExecutable } from '../../../src/sandbox/index.ts';
import { createCommandPolicy, type ToolContext } from '../../../src/tools/index.ts';
import { contextFor, runTool, type TempDir, tempDir } from '../helpers.ts';

const bwrap = await findExecutable('bwrap', process.env.PATH ?? '');
const bubblewrap = () => createSandbox({ enabled: true, backend: 'bubblewrap' });

// Every program of the table allowed as a whole, as a user who trusts them as "read-only" would.
const policy = createCommandPolicy({
  allowedCommands: [
    ...['rg', 'git', 'sort', 'uniq', 'find', 'tar', 'node', 'python3', 'perl', 'ruby', 'bash', 'sh'],
    ...['less', 'more', 'awk', 'sed', 'env', 'timeout', 'nice', 'nohup', 'command', 'time', 'xargs'],
    ...['cat', 'echo', 'printf', 'ls', 'true'],
  ],
});

let work: TempDir;
let sandboxedWork: TempDir;
let outside: string;
let ctx: ToolContext;
let sandboxed: ToolContext;

/** The files a hijacked model would have written first with write_file: each writes the marker outside. */
async function plant(dir: string): Promise<void> {
  await writeFile(join(dir, 'notes.txt'), 'hello\nhello\n');
  await writeFile(join(dir, 'evil.sh'), `#!/bin/sh\ntouch ${outside}/marker\n`);
  await chmod(join(dir, 'evil.sh'), 0o755);
  await writeFile(join(dir, 'evil.awk'), `BEGIN { system("touch ${outside}/marker") }\n`);
  await writeFile(join(dir, 'evil.sed'), `w ${outside}/marker\n`);
}

beforeAll(async () => {
  outside = await mkdtemp('/var/tmp/keel-outside-');
  await writeFile(join(outside, 'victim.txt'), 'untouched\n');
  work = await tempDir();
  await plant(work.path);
  ctx = await contextFor(work.path, {}, undefined, { commands: policy, sandbox: undefined });
  sandboxedWork = await tempDir();
  await plant(sandboxedWork.path);
  sandboxed = await contextFor(sandboxedWork.path, {}, undefined, {
    commands: policy,
    sandbox: bubblewrap(),
  });
});

afterAll(async () => {
  await work[Symbol.asyncDispose]();
  await sandboxedWork[Symbol.asyncDispose]();
  await rm(outside, { recursive: true, force: true });
});

const write = (o: string) => `require('fs').writeFileSync('${o}/marker', 'x')`;

/** Each would run evil.sh (or write the marker outside) if it ran; `reason` is part of the refusal. */
const hostile = (o: string): [string, RegExp][] => [
  // rg: a preprocessor or hostname program.
  ['rg --pre bash touch evil.sh', /rg's --pre, which makes rg run another program/],
  ['rg x notes.txt --pre=./evil.sh', /rg's --pre=\.\/evil\.sh/],
  [`rg --pre-glob '*.sh' --pre bash x evil.sh`, /rg's --pre-glob/],
  ['rg --hostname-bin ./evil.sh --hyperlink-format default x notes.txt', /rg's --hostname-bin/],
  // git grep's pager; git's settings naming programs.
  ['git grep -O./evil.sh hello', /git grep's -O\.\/evil\.sh, which makes git grep run a pager/],
  ['git grep --open-files-in-pager=./evil.sh hello', /git grep's --open-files-in-pager/],
  ["git -c core.pager='sh evil.sh' log", /git's -c core\.pager, which makes git run another program/],
  ['git -c core.fsmonitor=./evil.sh status', /-c core\.fsmonitor/],
  ["git -c core.sshCommand='sh evil.sh' fetch x", /-c core\.sshCommand/],
  ["git -c alias.x='!sh evil.sh' x", /defines a git alias that runs a shell command/],
  ['git --config-env=core.pager=SHELL log', /git's --config-env/],
  // sort and uniq: a compressor program, an output file.
  ['sort -S 1 --compress-program=./evil.sh notes.txt', /sort's --compress-program/],
  ['sort -o sorted.txt notes.txt', /sort's -o, which makes sort run another program or write a file/],
  [`sort --output=${o}/marker notes.txt`, /sort's --output/],
  [
    `uniq notes.txt ${o}/marker`,
    /gives uniq a second operand \(.*\/marker\), which uniq writes its output to/,
  ],
  [`uniq -c notes.txt ${o}/marker`, /gives uniq a second operand/],
  // find's actions.
  ['find . -name evil.sh -exec sh {} \\;', /find's -exec, which makes find run a command/],
  ['find . -name evil.sh -execdir sh {} \\;', /find's -execdir/],
  ['find . -name evil.sh -ok sh {} \\;', /find's -ok/],
  ['find . -name evil.sh -okdir sh {} \\;', /find's -okdir/],
  ['find . -name nothing -delete', /find's -delete/],
  [`find . -fprint ${o}/marker`, /find's -fprint/],
  [`find . -fprint0 ${o}/marker`, /find's -fprint0/],
  [`find . -fprintf ${o}/marker %p`, /find's -fprintf/],
  [`find . -fls ${o}/marker`, /find's -fls/],
  // tar's programs.
  ["tar -cf x.tar --to-command='sh evil.sh' notes.txt", /tar's --to-command/],
  ['tar -cf x.tar --use-compress-program=./evil.sh notes.txt', /tar's --use-compress-program/],
  ['tar -I ./evil.sh -cf x.tar notes.txt', /tar's -I, which makes tar run another program/],
  ["tar -cf x.tar --checkpoint=1 --checkpoint-action=exec='sh evil.sh' notes.txt", /--checkpoint-action/],
  // Interpreters given code on the command line or on their input.
  [
    `node -e "${write(o)}"`,
    /node's -e, which runs code written on the command line.*; to allow it on purpose, the user adds "node -e"/,
  ],
  [`node --eval "${write(o)}"`, /node's --eval/],
  [`node -p "${write(o)}"`, /node's -p/],
  [
    `echo "${write(o)}" | node`,
    /runs node without a script file, which makes it read the code it runs from its input/,
  ],
  [`python3 -c "open('${o}/marker', 'w')"`, /python3's -c/],
  [`echo "open('${o}/marker', 'w')" | python3 -`, /uses python3 -, which makes it read the code/],
  [`perl -e 'open(F, ">${o}/marker")'`, /perl's -e/],
  [`perl -ne 'open(F, ">${o}/marker")' notes.txt`, /perl's -ne/],
  [`ruby -e 'File.write("${o}/marker", "x")'`, /ruby's -e/],
  [`bash -c 'touch ${o}/marker'`, /bash's -c, which runs a script given on the command line/],
  ['sh -c "sh evil.sh"', /sh's -c/],
  ['bash < evil.sh', /runs bash without a script file/],
  // less and more: shell escapes and LESSOPEN.
  ["less '+!sh evil.sh' notes.txt", /less's \+!sh evil\.sh, which makes less run a shell command/],
  ['less --lesskey-src=evil.sh notes.txt', /less's --lesskey-src/],
  ["LESSOPEN='|sh evil.sh %s' less notes.txt", /sets LESSOPEN/],
  ["more '+!sh evil.sh' notes.txt", /more's \+!sh evil\.sh/],
  // awk and sed: programs that run commands or write, from the command line or a file.
  ['awk -f evil.awk notes.txt', /awk's -f, which loads a program from a file/],
  [`awk -F , 'BEGIN { system("touch ${o}/marker") }'`, /awk's system\(\)/],
  ['sed -f evil.sed notes.txt', /sed's -f, which reads its script from a file/],
  ['sed -i s/hello/bye/ notes.txt', /sed's -i, which rewrites the files it is given/],
  [`sed -l 5 'w ${o}/marker' notes.txt`, /sed's e or w command/],
  [`sed -n '1e sh evil.sh' notes.txt`, /sed's e or w command/],
  // Wrappers: the command they start is judged as itself, and they cannot hide it.
  [`env -C ${o} git init marker`, /env's -C, which runs the command in another directory/],
  [`env --chdir=${o} git init marker`, /env's --chdir/],
  [`env node -e "${write(o)}"`, /node's -e/],
  [`timeout 5 node -e "${write(o)}"`, /node's -e/],
  [`nice -n 5 python3 -c "open('${o}/marker', 'w')"`, /python3's -c/],
  [`nohup perl -e 'open(F, ">${o}/marker")'`, /perl's -e/],
  [`command bash -c 'touch ${o}/marker'`, /bash's -c/],
  ['command time -o ls sh evil.sh', /time's -o, which is an option of time the command check does not know/],
  // xargs: arguments from its input, which no check sees.
  ['echo evil.sh | xargs sh', /xargs's sh, which hands that command arguments read from its input/],
  ["printf -- '--pre\\nsh\\n' | xargs rg x evil.sh", /xargs's rg/],
  ['echo sh evil.sh | xargs xargs', /xargs's xargs/],
  ['echo x | xargs --process-slot-var=LD_PRELOAD cat', /xargs's --process-slot-var/],
];

const layers = [
  { layer: 'the command policy', context: () => ctx, skip: false },
  { layer: 'the command policy inside bubblewrap', context: () => sandboxed, skip: bwrap === undefined },
];

describe.each(layers)('exec_command refuses the argument table: $layer', ({ context, skip }) => {
  test.skipIf(skip).each(hostile('OUTSIDE'))('refused: %s', async (template, reason) => {
    const command = template.replaceAll('OUTSIDE', outside);
    // So that one escape, should it ever happen, fails its own row and not every row after it.
    await rm(join(outside, 'marker'), { recursive: true, force: true });
    const refusal = await runTool(context(), 'exec_command', { command }).then(
      (output) => new Error(`ran: ${output}`),
      (error: unknown) => error,
    );
    expect(KeelError.is(refusal) && refusal.code, String(refusal)).toBe('PERMISSION_DENIED');
    expect((refusal as Error).message).toMatch(reason);
    expect(existsSync(join(outside, 'marker'))).toBe(false);
    expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('untouched\n');
  });

  const harmless = [
    'rg hello notes.txt',
    'sort notes.txt',
    'uniq -c notes.txt',
    'find . -name "*.txt" -type f',
    "awk '{ print $1 }' notes.txt",
    'sed -n 1p notes.txt',
    'timeout 5 cat notes.txt',
    'nice -n 5 cat notes.txt',
    'env LC_ALL=C sort notes.txt',
    'echo notes.txt | xargs cat',
    'ls | xargs -n 1 echo',
    'less notes.txt',
    'bash -n evil.sh',
  ];

  test.skipIf(skip).each(harmless)('allowed and done: %s', async (command) => {
    const output = await runTool(context(), 'exec_command', { command });
    expect(output).toMatch(/Exit code: 0$/);
  });
});

// bubblewrap on its own: whatever these forms run, nothing lands outside.
describe.skipIf(bwrap === undefined)('bubblewrap alone, with every program allowed', () => {
  test.each(hostile('OUTSIDE'))('contained: %s', async (template) => {
    const command = template.replaceAll('OUTSIDE', outside);
    // So that one escape, should it ever happen, fails its own row and not every row after it.
    await rm(join(outside, 'marker'), { recursive: true, force: true });
    const argv = await bubblewrap()!.wrap({
      argv: ['bash', '-c', command],
      cwd: work.path,
      writableRoots: [work.path],
    });
    const [program, ...args] = argv;
    spawnSync(program!, args, { cwd: work.path, timeout: 10_000, input: '' });
    expect(existsSync(join(outside, 'marker'))).toBe(false);
    expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('untouched\n');
  });
});
