// Git's whole control surface at every nesting level (issue #36, item 1): a hostile repository or a hijacked
// model must not leave anything that the user's next `git` or `keel` runs as a program or reads as trusted
// configuration: `.git/commondir` pointing at a planted config, `info/attributes`, `config.worktree`,
// `worktrees/*/gitdir`, the config and hooks of a nested repository, a `.gitmodules` or nested `.runtime/`
// that did not exist. Each attack goes through the file tools and through commands in the real bubblewrap
// sandbox (scripts run from a file the command check cannot read); after it, the test runs the user's own
// git in each repository and checks that no planted program ran.
import { spawnSync } from 'node:child_process';
import { lstat, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually } from '@keel/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, findExecutable } from '../../src/sandbox/index.ts';
import { createCommandPolicy, type ToolContext } from '../../src/tools/index.ts';
import { contextFor, git, runTool, tempDir, writeFiles } from '../tools/helpers.ts';

const bwrap = await findExecutable('bwrap', process.env.PATH ?? '');
const anything = createCommandPolicy({ allowedCommands: ['*'] });
const scripts = await mkdtemp('/var/tmp/keel-nested-');
afterAll(() => rm(scripts, { recursive: true, force: true }));

/** A repository holding a nested repository `pkg/` (as a workbench task folder holds its repositories). */
async function world() {
  const work = await tempDir('keel-nested-');
  for (const dir of [work.path, join(work.path, 'pkg')]) {
    await writeFiles(dir, { 'README.md': 'hello\n' });
    git(dir, 'init', '-q', '.');
    git(dir, 'config', 'user.email', 'test@example.com');
    git(dir, 'config', 'user.name', 'Test');
  }
  await writeFiles(work.path, { 'pkg/.runtime/config.json': '{}\n' });
  const sandbox = createSandbox({ enabled: true, backend: 'bubblewrap', readable_paths: [scripts] });
  const ctx = await contextFor(work.path, {}, undefined, { commands: anything, sandbox });
  const marker = join(work.path, 'pwned');
  return { work, ctx, marker };
}

/** Runs `script` with `interpreter` from a file outside the workdir, so only the sandbox can stop it. */
async function run(ctx: ToolContext, script: string, interpreter = 'bash'): Promise<string> {
  const dir = await mkdtemp(join(scripts, 'run-'));
  const file = join(dir, interpreter === 'node' ? 'script.cjs' : 'script');
  await writeFile(file, `${script}\n`);
  return runTool(ctx, 'exec_command', { command: `${interpreter} ${file}` });
}

/** What the user does next: their own git, outside any sandbox, in both repositories. */
function usersGit(root: string): void {
  for (const dir of [root, join(root, 'pkg')]) {
    spawnSync('git', ['status', '--short'], { cwd: dir, encoding: 'utf8' });
    spawnSync('git', ['commit', '-q', '--allow-empty', '-m', 'user'], { cwd: dir, encoding: 'utf8' });
  }
}

const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  );
const eventuallyExists = (path: string) => eventually(() => exists(path), { what: path });

describe.skipIf(bwrap === undefined)(
  `git's control files at every depth, in the bubblewrap sandbox${bwrap ? '' : ' (skipped: bwrap is not installed)'}`,
  () => {
    it('a command cannot plant a commondir, attributes, worktree config or a new .git/.gitmodules/.runtime', async () => {
      const { work, ctx, marker } = await world();
      await using _ = work;
      const attacks = [
        // commondir: git then reads config and hooks from the folder it names (made inside the workdir).
        `mkdir -p evil && cp -r .git/objects .git/refs .git/HEAD evil/ && printf "[core]\\n\\tfsmonitor = \\"touch ${marker}\\"\\n" > evil/config && echo ../evil > .git/commondir`,
        'mkdir -p .git/info && echo "* filter=evil" > .git/info/attributes',
        `printf "[core]\\n\\tfsmonitor = \\"touch ${marker}\\"\\n" > .git/config.worktree`,
        'mkdir -p .git/worktrees/w && echo /elsewhere > .git/worktrees/w/gitdir',
        `mkdir -p .git/remotes && echo "URL: https://attacker.example/x.git" > .git/remotes/origin`,
        // A `.gitmodules` that did not exist, a nested `.runtime/` that did not, a new nested repository.
        'printf "[submodule \\"x\\"]\\n\\tpath = x\\n\\turl = https://attacker.example/x.git\\n" > .gitmodules',
        'mkdir -p lib/.runtime && echo "{\\"sandbox\\":{\\"enabled\\":false}}" > lib/.runtime/config.json',
        `mkdir -p tool && git -C tool init -q && git -C tool config core.fsmonitor "touch ${marker}"`,
        'echo "gitdir: /tmp/evil" > docs.git && mkdir -p docs && mv docs.git docs/.git',
      ];
      for (const attack of attacks) {
        const output = await run(ctx, attack);
        // Refused by a read-only mount, or done and then undone, saying so.
        expect(output, attack).toMatch(/read-only file system|Keel removed what the command created/i);
      }
      for (const path of [
        '.git/commondir',
        '.git/info/attributes',
        '.git/config.worktree',
        '.git/worktrees',
        '.git/remotes',
        '.gitmodules',
        'lib/.runtime',
        'tool/.git',
        'docs/.git',
      ]) {
        expect(await exists(join(work.path, path)), path).toBe(false);
      }
      usersGit(work.path);
      expect(await exists(marker)).toBe(false);
    });

    it('says what it removed and why', async () => {
      const { work, ctx } = await world();
      await using _ = work;
      const output = await run(ctx, 'echo ../evil > .git/commondir; echo made > notes.txt');
      expect(output).toContain("Keel removed what the command created in git's or Keel's control files");
      expect(output).toContain('.git/commondir');
      expect(await readFile(join(work.path, 'notes.txt'), 'utf8')).toBe('made\n');
    });

    it("a nested repository's config, hooks and .runtime are read-only to shell, node, python and git", async () => {
      const { work, ctx, marker } = await world();
      await using _ = work;
      const before = await readFile(join(work.path, 'pkg/.git/config'), 'utf8');
      const shell = [
        `echo "[core] fsmonitor = touch ${marker}" >> pkg/.git/config`,
        `git -C pkg config core.fsmonitor "touch ${marker}"`,
        `printf "#!/bin/sh\\ntouch ${marker}\\n" > pkg/.git/hooks/pre-commit && chmod +x pkg/.git/hooks/pre-commit`,
        'mv pkg/.git/hooks pkg/.git/hooks-old',
        'ln -sf /tmp/x pkg/.git/hooks/post-commit',
        'echo "{\\"sandbox\\":{\\"enabled\\":false}}" > pkg/.runtime/config.json',
        'rm -rf pkg/.runtime',
        'mv pkg/.git pkg/.git-old',
      ];
      for (const attack of shell) {
        expect(await run(ctx, attack), attack).toMatch(/read-only file system|resource busy|cross-device/i);
      }
      const node = await run(
        ctx,
        `const fs = require('fs');
for (const [path, text] of [['pkg/.git/config', '[core]\\n\\tfsmonitor = touch ${marker}\\n'], ['pkg/.git/hooks/pre-commit', '#!/bin/sh\\ntouch ${marker}\\n'], ['pkg/.runtime/config.json', '{}']]) {
  try { fs.writeFileSync(path, text, { mode: 0o755 }); console.log('wrote', path); } catch (e) { console.log(e.code, path); }
}`,
        'node',
      );
      expect(node).not.toContain('wrote');
      expect(node).toContain('EROFS pkg/.git/config');
      const python = await run(
        ctx,
        `for p in ['pkg/.git/config', 'pkg/.git/hooks/pre-commit']:
    try:
        open(p, 'a').write('[core]\\n\\tfsmonitor = touch ${marker}\\n'); print('wrote', p)
    except OSError as e:
        print('refused', p, e.strerror)`,
        'python3',
      );
      expect(python).not.toContain('wrote');
      expect(python).toContain('refused pkg/.git/config Read-only file system');
      expect(await readFile(join(work.path, 'pkg/.git/config'), 'utf8')).toBe(before);
      expect(await exists(join(work.path, 'pkg/.git/hooks/pre-commit'))).toBe(false);
      expect(await readFile(join(work.path, 'pkg/.runtime/config.json'), 'utf8')).toBe('{}\n');
      usersGit(work.path);
      expect(await exists(marker)).toBe(false);
    });

    it('still lets git commit in the workdir and in a nested repository', async () => {
      const { work, ctx } = await world();
      await using _ = work;
      const output = await run(
        ctx,
        'echo a > a.txt && git add a.txt && git commit -qm top && echo b > pkg/b.txt && git -C pkg add b.txt && git -C pkg commit -qm nested && git -C pkg branch -q side && git -C pkg tag v1 && git log --format=%s && git -C pkg log --format=%s',
      );
      expect(output).toMatch(/^top\nnested\n\nExit code: 0$/);
      expect(output).not.toContain('Keel removed');
      expect(git(join(work.path, 'pkg'), 'branch', '--list', 'side')).toContain('side');
    });

    it('two commands side by side in one workdir: the one ending first leaves the other its protection', async () => {
      // A run and its sub-agents run commands in the same workdir. The first one's stub `.runtime/` (the top
      // has none) is the second's existing, read-only `.runtime/`: removing it when the first ended pulled the
      // mount from under the second, which could then plant a `.runtime/config.json` its sweep took as old.
      const { work, ctx } = await world();
      await using _ = work;
      const first = run(ctx, 'until [ -e first-go ]; do sleep 0.02; done; echo first done');
      await eventuallyExists(join(work.path, '.runtime'));
      const second = run(
        ctx,
        'touch second-started; until [ -e second-go ]; do sleep 0.02; done; mkdir -p .runtime; echo "{}" > .runtime/config.json; echo second done',
      );
      await eventuallyExists(join(work.path, 'second-started'));
      await writeFile(join(work.path, 'first-go'), '');
      expect(await first).toContain('first done');
      expect(await exists(join(work.path, '.runtime')), 'kept while the second command runs').toBe(true);
      await writeFile(join(work.path, 'second-go'), '');
      expect(await second).toMatch(/read-only file system/i);
      expect(await exists(join(work.path, '.runtime')), 'removed when the last command ended').toBe(false);
    });

    it('plants nothing through the file tools either: the whole of every .git, .gitmodules and .runtime/', async () => {
      const { work, ctx, marker } = await world();
      await using _ = work;
      for (const path of [
        '.git/commondir',
        '.git/info/attributes',
        '.git/config.worktree',
        '.git/worktrees/w/gitdir',
        '.git/modules/x/config',
        '.git/objects/info/alternates',
        'pkg/.git/config',
        'pkg/.git/hooks/pre-commit',
        'pkg/.gitmodules',
        'pkg/.runtime/config.json',
        'lib/.runtime/config.json',
        'tool/.git/config',
        'docs/.git',
        'PKG/../pkg/.GIT/config',
      ]) {
        await expect(
          runTool(ctx, 'write_file', { path, content: `touch ${marker}\n` }),
          path,
        ).rejects.toMatchObject({ code: 'PERMISSION_DENIED', details: { reason: 'protected_path' } });
      }
      await expect(
        runTool(ctx, 'patch', {
          path: 'pkg/.git/config',
          diff: `@@ -1 +1,2 @@\n [core]\n+\tfsmonitor = touch ${marker}\n`,
        }),
      ).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
      usersGit(work.path);
      expect(await exists(marker)).toBe(false);
    });
  },
);
