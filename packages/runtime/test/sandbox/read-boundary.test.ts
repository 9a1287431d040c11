// The read boundary for commands (issue #22, item 4): with security.strict_read_boundary on, a sandboxed
// command cannot read the user's home, WORKBENCH_HOME (secrets.json) or RUNTIME_HOME, while the workdir (a
// task workspace inside WORKBENCH_HOME), the toolchains under the home and sandbox.readable_paths still work.
// The fake folders sit under /var/tmp: /tmp is private to the sandbox anyway, which would hide them regardless.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createToolContext } from '../../src/runs/index.ts';
import { createSandbox, findExecutable, seatbeltProfile } from '../../src/sandbox/index.ts';
import { readBoundaryOf } from '../../src/sandbox/read-boundary.ts';
import { createCommandPolicy, FileHistory, type ToolContext } from '../../src/tools/index.ts';
import { contextFor, git, runTool, writeFiles } from '../tools/helpers.ts';

const bwrap = await findExecutable('bwrap', process.env.PATH ?? '');
const anything = createCommandPolicy({ allowedCommands: ['*'] });

/** A fake home, WORKBENCH_HOME (with a task workspace, a git repository) and RUNTIME_HOME. */
async function machine() {
  const base = await realpath(await mkdtemp('/var/tmp/keel-read-'));
  const home = join(base, 'home');
  const workbench = join(base, 'workbench');
  const runtime = join(base, 'runtime');
  const workspace = join(workbench, 'tasks', 't1');
  await writeFiles(base, {
    'home/.ssh/id_rsa': 'SSH-KEY\n',
    'home/.aws/credentials': 'AWS-KEY\n',
    'home/.npmrc': '//registry.npmjs.org/:_authToken=NPM-TOKEN\n',
    'home/.nvm/versions/tool.txt': 'nvm toolchain\n',
    'home/extra/notes.txt': 'readable on purpose\n',
    'workbench/secrets.json': '{"model_api_key":"WB-SECRET"}\n',
    'workbench/tasks/t1/README.md': 'hello\n',
    'runtime/config.json': '{"model_api_key":"RT-SECRET"}\n',
    'scripts/.keep': '',
  });
  git(workspace, 'init', '-q', '.');
  git(workspace, 'config', 'user.email', 'test@example.com');
  git(workspace, 'config', 'user.name', 'Test');
  const env = { HOME: home, WORKBENCH_HOME: workbench, RUNTIME_HOME: runtime, PATH: process.env.PATH };
  // Where `sh` writes its scripts: readable on purpose, as nothing outside the allow-list is.
  const scripts = join(base, 'scripts');
  return {
    scripts,
    base,
    home,
    workbench,
    runtime,
    workspace,
    env,
    async context(strictReadBoundary?: boolean): Promise<ToolContext> {
      const sandbox = createSandbox(
        { enabled: true, backend: 'bubblewrap', readable_paths: ['~/extra', scripts] },
        { env, ...(strictReadBoundary === undefined ? {} : { strictReadBoundary }) },
      );
      return contextFor(workspace, {}, undefined, { commands: anything, sandbox });
    },
    /** Runs `script` from a file the command check cannot look into (its paths reach outside the workdir). */
    async sh(ctx: ToolContext, script: string): Promise<string> {
      const file = join(base, 'scripts', 'script.sh');
      await writeFile(file, `${script}\n`);
      return runTool(ctx, 'exec_command', { command: `bash ${file}` });
    },
    [Symbol.asyncDispose]: () => rm(base, { recursive: true, force: true }),
  };
}

describe.skipIf(bwrap === undefined)(
  `the read boundary in the bubblewrap sandbox${bwrap ? '' : ' (skipped: bwrap is not installed)'}`,
  () => {
    it('hides the home, WORKBENCH_HOME and RUNTIME_HOME from a command', async () => {
      await using m = await machine();
      const ctx = await m.context();
      for (const secret of [
        `${m.home}/.ssh/id_rsa`,
        `${m.home}/.aws/credentials`,
        `${m.home}/.npmrc`,
        `${m.workbench}/secrets.json`,
        `${m.runtime}/config.json`,
      ]) {
        const output = await m.sh(ctx, `cat ${secret}`);
        expect(output).toContain('No such file or directory');
        expect(output).toMatch(/Exit code: 1$/);
      }
      // The workbench's layout: the workspace is {WORKBENCH_HOME}/tasks/{id}.
      const relative = await runTool(ctx, 'exec_command', { command: 'cat ../../secrets.json' }).catch(
        (error: Error) => error.message,
      );
      expect(relative).not.toContain('WB-SECRET');
      expect(await m.sh(ctx, 'cat ../../secrets.json')).toContain('No such file or directory');
      const listing = await m.sh(ctx, `ls -A ${m.home}; ls -A ${m.workbench}; ls -A ${m.runtime}`);
      expect(listing).not.toMatch(/\.ssh|\.aws|\.npmrc|secrets\.json|config\.json/);
    });

    it('keeps the workdir readable and writable, and git working in it', async () => {
      await using m = await machine();
      const ctx = await m.context();
      const output = await m.sh(
        ctx,
        'test ! -e ../../secrets.json && cat README.md && echo new > notes.txt && git add -A && git commit -qm "from the sandbox" && git status --short && git log --oneline',
      );
      // Inside the hidden WORKBENCH_HOME, the workspace alone is there again.
      expect(output).toMatch(/^hello\n[0-9a-f]+ from the sandbox\n\nExit code: 0$/);
      expect(await readFile(join(m.workspace, 'notes.txt'), 'utf8')).toBe('new\n');
      expect(git(m.workspace, 'log', '--format=%s')).toBe('from the sandbox\n');
    });

    it('shows the toolchains under the home and sandbox.readable_paths, read-only', async () => {
      await using m = await machine();
      const ctx = await m.context();
      const output = await m.sh(
        ctx,
        `ls -A ${m.home}; cat ${m.home}/.nvm/versions/tool.txt ${m.home}/extra/notes.txt; echo x > ${m.home}/extra/new.txt`,
      );
      // Only they, in a home that is otherwise empty.
      expect(output).toMatch(/^\.nvm\nextra\nnvm toolchain\nreadable on purpose\n/);
      expect(output).toMatch(/read-only file system/i);
    });

    it('leaves $HOME a private writable folder, so tools can write their caches', async () => {
      await using m = await machine();
      const ctx = await m.context();
      const output = await m.sh(
        ctx,
        `mkdir -p ${m.home}/.cache/tool && echo c > ${m.home}/.cache/tool/x && echo ok`,
      );
      expect(output).toBe('ok\n\nExit code: 0');
      // Private to the command: nothing reaches the real folder.
      expect(spawnSync('ls', ['-A', m.home], { encoding: 'utf8' }).stdout).not.toContain('.cache');
    });

    it('reads everything again with strict_read_boundary false', async () => {
      await using m = await machine();
      const script = `cat ${m.home}/.ssh/id_rsa ../../secrets.json ${m.runtime}/config.json`;
      expect(await m.sh(await m.context(true), script)).not.toMatch(/SSH-KEY|SECRET/);
      const output = await m.sh(await m.context(false), script);
      expect(output).toContain('SSH-KEY\n{"model_api_key":"WB-SECRET"}\n{"model_api_key":"RT-SECRET"}\n');
    });

    it('takes the switch and the runtime directory from the configuration (createToolContext)', async () => {
      await using m = await machine();
      const contextOf = async (strict: boolean) =>
        (
          await createToolContext({
            workdir: m.workspace,
            config: {
              sandbox: { enabled: true, backend: 'bubblewrap', readable_paths: [m.scripts] },
              security: { allowed_commands: ['*'], strict_read_boundary: strict },
            },
            audit: async () => {},
            history: new FileHistory(),
            runtimeDir: m.runtime,
          })
        )(new AbortController().signal);
      const read = `cat ${m.runtime}/config.json`;
      expect(await m.sh(await contextOf(true), read)).toContain('No such file or directory');
      expect(await m.sh(await contextOf(false), read)).toContain('RT-SECRET');
    });

    it("hides an embedder's own folders (RuntimeOptions.hiddenPaths) that are in no environment variable", async () => {
      await using m = await machine();
      // The whole test folder is readable on purpose, so only the embedder's list hides WORKBENCH_HOME.
      const contextOf = async (hiddenPaths?: string[]) =>
        (
          await createToolContext({
            workdir: m.workspace,
            config: {
              sandbox: { enabled: true, backend: 'bubblewrap', readable_paths: [m.base] },
              security: { allowed_commands: ['*'] },
            },
            audit: async () => {},
            history: new FileHistory(),
            hiddenPaths,
          })
        )(new AbortController().signal);
      // The workspace lives inside the hidden folder, as a workbench task's does, and stays usable.
      const read = `cat ${m.workbench}/secrets.json; cat ${m.workspace}/README.md`;
      const hidden = await m.sh(await contextOf([m.workbench]), read);
      expect(hidden).not.toContain('WB-SECRET');
      expect(hidden).toContain('hello');
      expect(await m.sh(await contextOf(), read)).toContain('WB-SECRET');
    });
  },
);

describe('the read boundary on this machine', () => {
  it('hides the homes that exist and shows their toolchains and readable_paths again', async () => {
    await using m = await machine();
    const boundary = readBoundaryOf({ env: m.env, readablePaths: ['~/extra', '/nowhere/at/all'] });
    expect(boundary.hidden).toEqual(expect.arrayContaining([m.home, m.workbench, m.runtime]));
    expect(boundary.hidden).not.toContain('/');
    expect(boundary.readable).toEqual(expect.arrayContaining([join(m.home, '.nvm'), join(m.home, 'extra')]));
    expect(boundary.readable).not.toContain('/nowhere/at/all');
    expect(boundary.readable.some((path) => /\.ssh|\.aws|\.npmrc|\.config/.test(path))).toBe(false);
  });

  it('denies Seatbelt reads of the hidden folders, then allows the roots and readable paths inside them', async () => {
    await using m = await machine();
    const profile = seatbeltProfile({
      writableRoots: [m.workspace],
      network: false,
      readBoundary: readBoundaryOf({ env: m.env }),
    });
    const lines = profile.split('\n');
    const deny = lines.indexOf(`(deny file-read* (subpath "${m.workbench}"))`);
    const allow = lines.indexOf(`(allow file-read* (subpath "${m.workspace}"))`);
    expect(deny).toBeGreaterThan(lines.indexOf('(allow file-read*)'));
    expect(allow).toBeGreaterThan(deny);
    expect(lines).toContain(`(deny file-read* (subpath "${m.home}"))`);
    expect(lines).toContain(`(allow file-read* (subpath "${join(m.home, '.nvm')}"))`);
    // The folders above the workspace can still be resolved, not listed.
    expect(lines.find((line) => line.startsWith('(allow file-read-metadata'))).toContain(
      `(literal "${join(m.workbench, 'tasks')}")`,
    );
    expect(seatbeltProfile({ writableRoots: [m.workspace], network: false })).not.toContain('deny file-read');
  });
});
