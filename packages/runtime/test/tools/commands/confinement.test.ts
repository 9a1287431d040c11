// exec_command may not write outside the working directory and the allowed roots, even with commands
// built only from allowed programs (issue #15): each hostile command is really run through the tool, is
// refused naming why, and leaves no marker outside. The companion table of harmless commands still works.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { KeelError } from '../../../src/index.ts';
import { createSandbox, findExecutable } from '../../../src/sandbox/index.ts';
import { createCommandPolicy, type ToolContext } from '../../../src/tools/index.ts';
import { contextFor, runTool, type TempDir, tempDir } from '../helpers.ts';

const bwrap = await findExecutable('bwrap', process.env.PATH ?? '');
const bubblewrap = () => createSandbox({ enabled: true, backend: 'bubblewrap' });

const policy = createCommandPolicy({
  allowedCommands: [
    'ls',
    'echo',
    'cat',
    'git',
    'grep',
    'wc',
    'printf',
    'tee',
    'cp',
    'mv',
    'touch',
    'mkdir',
    'sed',
    'ln',
    'dd',
    'sort',
    'curl',
    'tar',
    'awk',
    'find',
    'xargs',
    'cd',
    'rm',
    'chmod',
    'true',
    // The argument table's forms that write through an operand, allowed on purpose here so that these rows
    // test the write check behind them (argument-policy.test.ts tests the table itself).
    'sed -i',
    'sort -o',
    'find -exec',
    'find -execdir',
    'find -ok',
    'find -delete',
    'find -fprint',
    'find -fprintf',
    'find -fls',
  ],
});

let work: TempDir;
let sandboxedWork: TempDir;
let outside: string;
let ctx: ToolContext;
let sandboxed: ToolContext;

beforeAll(async () => {
  work = await tempDir();
  // Not under /tmp's temp folder of the workdir: a sibling directory the workdir must not reach.
  outside = await mkdtemp('/var/tmp/keel-outside-');
  await writeFile(join(work.path, 'notes.txt'), 'hello\n');
  await writeFile(join(outside, 'victim.txt'), 'untouched\n');
  ctx = await contextFor(work.path, {}, undefined, { commands: policy, sandbox: undefined });
  // Its own workdir, so the harmless commands of one layer do not meet what the other left.
  sandboxedWork = await tempDir();
  await writeFile(join(sandboxedWork.path, 'notes.txt'), 'hello\n');
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

/** Each writes `marker` outside (or would, if it ran); `reason` is part of the refusal. */
const hostile = (o: string): [string, RegExp][] => [
  [`echo x > ${o}/marker`, /redirection '>' writes to it/],
  [`echo x >> ${o}/marker`, /redirection '>>'/],
  [`ls > ${o}/marker`, /outside the working directory/],
  [`echo x &> ${o}/marker`, /redirection '&>' writes to it/],
  [`echo x 2> ${o}/marker`, /redirection '>'/],
  [`cat notes.txt >| ${o}/marker`, /redirection '>\|'/],
  [`echo x > ../${o.split('/').at(-1)}/marker`, /outside/],
  [`echo x | tee ${o}/marker`, /tee changes it/],
  [`echo x | tee -a notes.txt ${o}/marker`, /tee changes it/],
  [`cp notes.txt ${o}/marker`, /cp writes there/],
  [`cp -t ${o} notes.txt`, /cp -t writes there|cp writes there/],
  [`mv notes.txt ${o}/marker`, /mv writes there/],
  [`touch ${o}/marker`, /touch changes it/],
  [`mkdir ${o}/marker`, /mkdir changes it/],
  [`rm ${o}/victim.txt`, /rm changes it/],
  [`chmod 777 ${o}/victim.txt`, /chmod changes it/],
  [`sed -i s/untouched/changed/ ${o}/victim.txt`, /sed -i rewrites it/],
  [`ln -s ${o} escape`, /ln links to it/],
  [`ln notes.txt ${o}/marker`, /ln writes there/],
  [`dd if=notes.txt of=${o}/marker`, /dd of= writes there/],
  [`sort -o ${o}/marker notes.txt`, /sort -o writes there/],
  [`curl -o ${o}/marker http://127.0.0.1:9/`, /curl -o writes there/],
  [`curl --output=${o}/marker http://127.0.0.1:9/`, /--output writes there/],
  [`tar -C ${o} -cf x.tar notes.txt`, /tar -C writes there/],
  [`git -C ${o} init`, /git -C works there/],
  [`git --git-dir=${o}/marker init`, /--git-dir writes there/],
  [`git -c core.pager='touch ${o}/marker' log`, /core\.pager/],
  [`git -c core.editor=vi commit`, /core\.editor/],
  [`git -c core.sshCommand='touch ${o}/marker' fetch`, /core\.sshcommand/i],
  [`git -c core.fsmonitor='touch ${o}/marker' status`, /core\.fsmonitor/],
  [`git -c alias.x='!touch ${o}/marker' x`, /git alias that runs a shell command/],
  [`git --config-env=core.pager=PAGER log`, /--config-env/],
  [`GIT_DIR=${o} git init`, /sets GIT_DIR/],
  [`PAGER='touch ${o}/marker' git log`, /sets PAGER/],
  [`awk 'BEGIN { system("touch ${o}/marker") }'`, /system\(\)/],
  [`awk 'BEGIN { print "x" > "${o}/marker" }'`, /print > file/],
  [`awk 'BEGIN { print "x" | "cat" }'`, /a pipe/],
  [`sed -n 'w ${o}/marker' notes.txt`, /e or w command/],
  [`sed 's/hello/touch ${o}\\/marker/e' notes.txt`, /e or w command/],
  [`find . -name notes.txt -exec touch ${o}/marker \\;`, /touch changes it/],
  [`echo ${o}/marker | xargs touch`, /paths xargs hands it/],
  [`find ${o} -name victim.txt -delete`, /find acts on what it finds/],
  [`find ${o} -exec rm {} +`, /find acts on what it finds/],
  [`cd ${o} && touch marker`, /cd moves the command there/],
  [`cd .. && touch marker`, /cd moves the command there/],
  [`echo x > $HOME/marker`, /only known when the shell runs/],
  [`echo x > ~/marker`, /home directory/],
  [`echo x > ../*/marker`, /outside/],
  [`true; echo x > ${o}/marker`, /redirection '>'/],
  [`true && (echo x > ${o}/marker)`, /redirection '>'/],
  [`echo $(echo x > ${o}/marker)`, /redirection '>'/],
  // Redirections spelled every way the shell allows.
  [`echo x >${o}/marker`, /redirection '>'/],
  [`echo x 1>${o}/marker`, /redirection '>'/],
  [`echo x <> ${o}/marker`, /redirection '<>'/],
  [`cat <<EOF > ${o}/marker\nx\nEOF`, /redirection '>'/],
  [`grep -r x . > ${o}/marker`, /redirection '>'/],
  [`echo x >/proc/self/fd/1`, /outside/],
  // Paths in disguise: quotes, escapes, dots, doubled slashes, Unicode look-alikes, substitutions.
  [`printf x > "${o}/marker"`, /outside/],
  [`printf x > '${o}'/marker`, /outside/],
  [`echo x > "${o}"/marker`, /outside/],
  [`echo x > $'${o}/marker'`, /outside/],
  [`echo x > ${o}/mark\\er`, /outside/],
  [`echo x > ${o}/./marker`, /outside/],
  [`echo x > ${o}//marker`, /outside/],
  [`echo x > /var/tmp/../..${o}/marker`, /outside/],
  [`echo x > /dev/../${o}/marker`, /outside/],
  [`echo x > ${o}/ｍarker`, /outside/],
  [`echo x > $(echo ${o})/marker`, /only known when the shell runs/],
  [`echo x > \`echo ${o}\`/marker`, /only known when the shell runs/],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's ${HOME}, on purpose
  ['echo x > ${HOME}/marker', /only known when the shell runs/],
  // Links made by an allowed command, to be written through later.
  [`ln -s ${o}/marker link && echo x > link`, /ln links to it/],
  [`ln -s .. up && echo x > up/marker`, /ln links to it/],
  [`ln -sf ${o}/victim.txt notes.txt`, /ln links to it/],
  // Writing programs' other spellings.
  [`cp -r notes.txt ${o}/`, /cp writes there/],
  [`mv -t ${o} notes.txt`, /mv -t writes there|mv writes there/],
  [`cp --target-directory=${o} notes.txt`, /--target-directory writes there/],
  [`touch -- ${o}/marker`, /touch changes it/],
  [`mkdir -p ${o}/a/b`, /mkdir changes it/],
  [`rm -rf ${o}`, /rm changes it/],
  [`chmod -R 777 ${o}`, /chmod changes it/],
  [`sed -i.bak s/a/b/ ${o}/victim.txt`, /sed -i rewrites it/],
  [`sed --in-place s/a/b/ ${o}/victim.txt`, /sed -i rewrites it/],
  [`echo x | tee --append ${o}/marker`, /tee changes it/],
  [`dd of=${o}/marker < notes.txt`, /dd of= writes there/],
  [`sort notes.txt -o ${o}/marker`, /sort -o writes there/],
  [`curl -o${o}/marker http://127.0.0.1:9/`, /curl -o writes there/],
  [`curl http://127.0.0.1:9/ -o ${o}/marker`, /curl -o writes there/],
  [`tar -cf ${o}/marker notes.txt`, /tar writes the archive there/],
  [`tar -xf x.tar --directory=${o}`, /--directory writes there/],
  [`find . -fprint ${o}/marker`, /find -fprint writes it/],
  [`find . -fprintf ${o}/marker %p`, /find -fprintf writes it/],
  [`find . -fls ${o}/marker`, /find -fls writes it/],
  [`find . -execdir touch ${o}/marker \\;`, /touch changes it/],
  [`find . -ok touch ${o}/marker \\;`, /touch changes it/],
  // git making repositories and files elsewhere, or running other programs.
  [`git clone . ${o}/marker`, /git clone writes there/],
  [`git init ${o}/marker`, /git init writes there/],
  [`git worktree add ${o}/wt`, /git worktree add writes there/],
  [`git archive -o ${o}/marker HEAD`, /git archive writes there/],
  [`git bundle create ${o}/marker HEAD`, /git bundle create writes there/],
  [`git -c core.hooksPath=${o} commit -m x`, /core\.hooksPath/],
  [`git -c core.askPass='touch ${o}/marker' fetch`, /core\.askPass/],
  [`git -c credential.helper='!touch ${o}/marker' fetch`, /credential\.helper/],
  [`git -c diff.external='touch ${o}/marker' diff`, /diff\.external/],
  [`git -c filter.x.clean='touch ${o}/marker' add .`, /filter\.x\.clean/],
  [`git -c include.path=${o}/x.cfg log`, /include\.path/],
  [`git --exec-path=${o} status`, /--exec-path/],
  [`tar -cf x.tar --to-command='touch ${o}/marker' notes.txt`, /--to-command/],
  [`tar -xf x.tar --checkpoint=1 --checkpoint-action=exec='touch ${o}/marker'`, /--checkpoint-action/],
  [`awk '{ print > "${o}/marker" }' notes.txt`, /print > file/],
  [`sed -n 'w${o}/marker' notes.txt`, /e or w command/],
  [`xargs -I{} touch {} < ${o}/victim.txt`, /paths xargs hands it/],
  // The environment of an allowed program, and programs that are not allowed at all.
  [`env touch ${o}/marker`, /touch changes it/],
  [`FOO=1 touch ${o}/marker`, /touch changes it/],
  [`GIT_CONFIG_PARAMETERS="'core.pager=touch ${o}/marker'" git log`, /sets GIT_CONFIG_PARAMETERS/],
  [`GIT_SSH_COMMAND='touch ${o}/marker' git fetch`, /sets GIT_SSH_COMMAND/],
  [`EDITOR='touch ${o}/marker' git commit`, /sets EDITOR/],
  [`LD_PRELOAD=${o}/x.so ls`, /sets LD_PRELOAD/],
  [`BASH_ENV=${o}/x cat notes.txt`, /sets BASH_ENV/],
  [`bash -c 'touch ${o}/marker'`, /not on the allow-list/],
  [`install notes.txt ${o}/marker`, /not on the allow-list/],
  // cd in every form.
  [`cd / && touch ${o}/marker`, /cd moves the command there/],
  [`cd "${o}"; echo x > marker`, /cd moves the command there/],
  [`(cd ${o} && touch marker)`, /cd moves the command there/],
];

const layers = [
  { layer: 'the command policy', context: () => ctx, dir: () => work.path, skip: false },
  {
    layer: 'the command policy inside bubblewrap',
    context: () => sandboxed,
    dir: () => sandboxedWork.path,
    skip: bwrap === undefined,
  },
];

describe.each(layers)('exec_command keeps writes inside the boundary: $layer', ({ context, dir, skip }) => {
  test.skipIf(skip).each(hostile('OUTSIDE'))('refused: %s', async (template, reason) => {
    const command = template.replaceAll('OUTSIDE', outside);
    const refusal = await runTool(context(), 'exec_command', { command }).then(
      (output) => new Error(`ran: ${output}`),
      (error: unknown) => error,
    );
    expect(KeelError.is(refusal) && refusal.code, String(refusal)).toBe('PERMISSION_DENIED');
    expect((refusal as Error).message).toMatch(reason);
    expect(existsSync(join(outside, 'marker'))).toBe(false);
    expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('untouched\n');
    // So that one escape, should it ever happen, fails its own row and not every row after it.
    await rm(join(outside, 'marker'), { recursive: true, force: true });
  });

  const harmless: [string, (dir: string) => Promise<void>][] = [
    ['echo hi > out.txt', async (dir) => expect(await readFile(join(dir, 'out.txt'), 'utf8')).toBe('hi\n')],
    [
      'echo hi | tee copy.txt > /dev/null',
      async (dir) => expect(existsSync(join(dir, 'copy.txt'))).toBe(true),
    ],
    [
      'mkdir -p sub/deeper && touch sub/deeper/a.txt',
      async (dir) => expect(existsSync(join(dir, 'sub/deeper/a.txt'))).toBe(true),
    ],
    [
      'cp notes.txt notes-copy.txt && mv notes-copy.txt moved.txt',
      async (dir) => expect(existsSync(join(dir, 'moved.txt'))).toBe(true),
    ],
    [
      'cd sub && echo in > inner.txt',
      async (dir) => expect(existsSync(join(dir, 'sub/inner.txt'))).toBe(true),
    ],
    ['ln -s notes.txt link.txt', async (dir) => expect(existsSync(join(dir, 'link.txt'))).toBe(true)],
    [
      'sed -i s/hello/HELLO/ notes.txt',
      async (dir) => expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('HELLO\n'),
    ],
    [
      'git -c core.autocrlf=false --version > version.txt 2>&1',
      async (dir) => expect(existsSync(join(dir, 'version.txt'))).toBe(true),
    ],
    ['find . -name "*.tmp" -delete', async (dir) => expect(existsSync(dir)).toBe(true)],
    [
      "awk '{ print $1 }' notes.txt > words.txt",
      async (dir) => expect(existsSync(join(dir, 'words.txt'))).toBe(true),
    ],
    [
      'echo x 2>/dev/null >/dev/null; ls *.txt > list.txt',
      async (dir) => expect(existsSync(join(dir, 'list.txt'))).toBe(true),
    ],
  ];

  test.skipIf(skip).each(harmless)('allowed and done: %s', async (command, check) => {
    await mkdir(join(dir(), 'sub'), { recursive: true });
    const output = await runTool(context(), 'exec_command', { command });
    expect(output).toMatch(/Exit code: 0$/);
    await check(dir());
  });
});

// The last line of defence on its own: every hostile command run by bash inside bubblewrap, with no command
// check in front of it. Some fail, some write inside the workdir; none may leave a mark outside.
describe.skipIf(bwrap === undefined)('bubblewrap alone, with every program allowed', () => {
  test.each(hostile('OUTSIDE'))('contained: %s', async (template) => {
    const command = template.replaceAll('OUTSIDE', outside);
    const argv = await bubblewrap()!.wrap({
      argv: ['bash', '-c', command],
      cwd: work.path,
      writableRoots: [work.path],
    });
    const [program, ...args] = argv;
    spawnSync(program!, args, { cwd: work.path, timeout: 10_000, input: '' });
    expect(existsSync(join(outside, 'marker'))).toBe(false);
    expect(existsSync(join(outside, 'wt'))).toBe(false);
    expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('untouched\n');
  });
});
