// exec_command may not write outside the working directory and the allowed roots, even with commands
// built only from allowed programs (issue #15): each hostile command is really run through the tool, is
// refused naming why, and leaves no marker outside. The companion table of harmless commands still works.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { KeelError } from '../../../src/index.ts';
import { createCommandPolicy, type ToolContext } from '../../../src/tools/index.ts';
import { contextFor, runTool, type TempDir, tempDir } from '../helpers.ts';

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
  ],
});

let work: TempDir;
let outside: string;
let ctx: ToolContext;

beforeAll(async () => {
  work = await tempDir();
  // Not under /tmp's temp folder of the workdir: a sibling directory the workdir must not reach.
  outside = await mkdtemp('/var/tmp/keel-outside-');
  await writeFile(join(work.path, 'notes.txt'), 'hello\n');
  await writeFile(join(outside, 'victim.txt'), 'untouched\n');
  ctx = await contextFor(work.path, {}, undefined, { commands: policy });
});

afterAll(async () => {
  await work[Symbol.asyncDispose]();
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
];

describe('exec_command keeps writes inside the boundary', () => {
  test.each(hostile('OUTSIDE'))('refused: %s', async (template, reason) => {
    const command = template.replaceAll('OUTSIDE', outside);
    const refusal = await runTool(ctx, 'exec_command', { command }).then(
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

  test.each(harmless)('allowed and done: %s', async (command, check) => {
    await mkdir(join(work.path, 'sub'), { recursive: true });
    const output = await runTool(ctx, 'exec_command', { command });
    expect(output).toMatch(/Exit code: 0$/);
    await check(work.path);
  });
});
