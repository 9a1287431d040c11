import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unconfinedRisk } from '../../../src/tools/commands/unconfined-commands.ts';
import { execCommandTool } from '../../../src/tools/index.ts';
import { contextFor, runTool, tempDir } from '../helpers.ts';

async function workspace() {
  const dir = await tempDir();
  const work = join(dir.path, 'work');
  await mkdir(join(work, 'src'), { recursive: true });
  await writeFile(join(work, 'notes.txt'), 'notes\n');
  await writeFile(join(dir.path, 'secret.txt'), 'secret\n');
  await symlink(join(dir.path, 'secret.txt'), join(work, 'link.txt'));
  return { dir, work, guard: (await contextFor(work)).guard };
}

describe('commands with no sandbox backend', () => {
  it('runs reads inside the working directory freely', async () => {
    const { dir, work, guard } = await workspace();
    await using _ = dir;
    for (const command of [
      'cat notes.txt',
      'ls -la src',
      'grep -rn "TODO" . | head -5',
      'rg --files-with-matches foo src',
      'find . -name "*.ts" | sort | uniq -c',
      'wc -l notes.txt < notes.txt',
      'cd src && ls',
      'cat src/*.ts 2>/dev/null',
      'echo "a/b/../../.." && pwd',
      `cat ${join(work, 'notes.txt')}`,
    ]) {
      expect(await unconfinedRisk(command, guard, work), command).toBeUndefined();
    }
  });

  it('names what makes any other command need approval', async () => {
    const { dir, work, guard } = await workspace();
    await using _ = dir;
    const cases: Array<[string, string]> = [
      ['npm test', 'runs npm, which is not known to only read'],
      ['mkdir build', 'runs mkdir, which is not known to only read'],
      ['git status', 'runs git, which is not known to only read'],
      ['ls && node build.js', 'runs node, which is not known to only read'],
      ['cat ../secret.txt', "reads '../secret.txt', outside the working directory and allowed roots"],
      ['cat link.txt', "reads 'link.txt', outside the working directory"],
      ['cat ~/.ssh/id_rsa', "reads '~/.ssh/id_rsa' in the home directory"],
      ['cat $HOME/.netrc', "reads '$HOME/.netrc', a path only known when the shell runs"],
      ['grep --file=/etc/shadow x', "reads '/etc/shadow', outside"],
      ['cat ../*.txt', "reads '../*.txt', outside"],
      ['wc -l < /etc/passwd', "reads '/etc/passwd', outside"],
      ['cd / && cat etc/hostname', "reads '/', outside"],
      ['echo hi > out.txt', "writes through the redirection '>'"],
      ['find . -name x | xargs cat', 'runs cat through xargs, on paths only known when it runs'],
      ['cat "unterminated', 'cannot be checked before it runs'],
      // Links inside the workdir that lead out: what a glob could match, and options that follow links.
      [
        'cat *.txt',
        "reads '*.txt', which may match 'link.txt', a link that leads outside the working directory",
      ],
      ['grep -Rn secret .', 'follows links while it reads (-Rn)'],
      ['rg --follow secret', 'follows links while it reads (--follow)'],
      ['find -L . -name x', 'follows links while it reads (-L)'],
    ];
    for (const [command, reason] of cases) {
      expect(await unconfinedRisk(command, guard, work), command).toContain(reason);
    }
  });

  it('reads anywhere when security.strict_read_boundary is off, but still asks for writes', async () => {
    const { dir, work } = await workspace();
    await using _ = dir;
    const { guard } = await contextFor(work, { strictReadBoundary: false });
    expect(await unconfinedRisk('cat ../secret.txt', guard, work)).toBeUndefined();
    expect(await unconfinedRisk('mkdir x', guard, work)).toContain('runs mkdir');
  });

  it('exec_command refuses them in the refuse mode, saying why and how to allow it', async () => {
    const { dir, work } = await workspace();
    await using _ = dir;
    const ctx = { ...(await contextFor(work)), unconfinedCommands: 'refuse' as const };
    expect(await runTool(ctx, 'exec_command', { command: 'cat notes.txt' })).toBe('notes\n\nExit code: 0');
    const refused = runTool(ctx, 'exec_command', { command: 'mkdir made' });
    await expect(refused).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
      details: { reason: 'no_sandbox', command: 'mkdir made' },
    });
    await expect(refused).rejects.toThrow(/apt-get install bubblewrap.*sandbox\.enabled to false/);
    expect(existsSync(join(work, 'made'))).toBe(false);
  });

  it('in the ask mode, exec_command gives the reason a run asks for, and runs what reaches it', async () => {
    const { dir, work } = await workspace();
    await using _ = dir;
    const ctx = { ...(await contextFor(work)), unconfinedCommands: 'ask' as const };
    const reason = (command: unknown) => execCommandTool.approvalReason!(ctx, { command });
    expect(await reason('cat notes.txt')).toBeUndefined();
    expect(await reason('mkdir made')).toBe(
      'the command runs mkdir, which is not known to only read, and no sandbox confines commands on this machine',
    );
    // Refused anyway (not on the allow-list, or writing outside): no approval is asked for what cannot run.
    expect(await reason('curl https://example.com')).toBeUndefined();
    expect(await reason('mkdir ../out')).toBeUndefined();
    expect(await reason(42)).toBeUndefined();
    // Without a mode (a sandbox, or unconfined on purpose) nothing is asked.
    expect(
      await execCommandTool.approvalReason!(await contextFor(work), { command: 'mkdir a' }),
    ).toBeUndefined();
    expect(await runTool(ctx, 'exec_command', { command: 'mkdir made' })).toBe('(no output)\n\nExit code: 0');
    expect(existsSync(join(work, 'made'))).toBe(true);
  });
});
