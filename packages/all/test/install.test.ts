// long-running: packs every package and installs them into several projects (about a minute and a half)
// Installs Keel as a user would: every package packed with `npm pack`, the tarballs installed into a new
// project in the temp folder (nowhere near this repository's node_modules), then the SDK, `keel` and
// `keel-web` used from there, on the Node that runs the tests and on the oldest Node we support.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { installProject, installRow, type Project, packAll } from '../../../scripts/packed-install.ts';

const run = promisify(execFile);
const oldestNode = '22.13.1';

/** A scripted model conversation: list the directory, read a file, edit it, answer. */
const replies = [
  { toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] },
  { toolCalls: [{ name: 'read_file', arguments: { path: 'greet.txt' } }] },
  { toolCalls: [{ name: 'edit_file', arguments: { path: 'greet.txt', old_text: 'Hello', new_text: 'Hi' } }] },
  { text: 'Changed the greeting.' },
];

const sdkScript = `
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '@keel/runtime';
import { startMockModel } from '@keel/testkit';

const replies = JSON.parse(process.argv[2]);
const model = await startMockModel({ script: replies });
const workdir = mkdtempSync(join(tmpdir(), 'keel-sdk-work-'));
writeFileSync(join(workdir, 'greet.txt'), 'Hello, world\\n');
const runtime = createRuntime({ model: 'mock-model', modelBaseUrl: model.url, runtimeDir: mkdtempSync(join(tmpdir(), 'keel-sdk-home-')) });
const tools = [];
runtime.events.on('tool_call', (event) => tools.push(event.tool_name));
const result = await runtime.run({ prompt: 'Say hi instead of hello', workdir });
await runtime.close();
await model.close();
console.log(JSON.stringify({ status: result.status, output: result.output, tools, file: readFileSync(join(workdir, 'greet.txt'), 'utf8') }));
`;

const consumerTypes = `
import { createRuntime, type RunResult, KeelError } from '@keel/runtime';
import { startMockModel } from '@keel/testkit';
const runtime = createRuntime({ model: 'm' });
const result: Promise<RunResult> = runtime.run({ prompt: 'x', workdir: '.' });
const isError: boolean = KeelError.is(new Error('x'));
void startMockModel;
void result;
void isError;
`;

const webClientScript = `
import { createKeelWebClient } from '@keel/web-client';
const client = createKeelWebClient({ baseUrl: process.argv[2] });
const health = await client.health();
const page = await client.runs.list();
console.log(JSON.stringify({ health: health.status, runs: page.runs }));
`;

let project: Project;
let tarballs: Map<string, string>;
const scratch = join(tmpdir(), `keel-install-${process.pid}`);

beforeAll(async () => {
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { recursive: true });
  tarballs = await packAll(join(scratch, 'tarballs'));
  project = await installProject(join(scratch, 'project'), tarballs, { oldestNode });
}, 600_000);

// Several installed trees: removing them takes a while on a busy machine.
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
}, 120_000);

describe.each([
  ['the Node running the tests', () => process.execPath],
  [`Node ${oldestNode}`, () => project.oldestNodePath],
])('installed from tarballs, on %s', (_name, nodePath) => {
  test('the SDK runs a scripted multi-step task against the installed testkit', async () => {
    await writeFile(join(project.dir, 'sdk-task.mjs'), sdkScript);
    const { stdout } = await run(nodePath(), ['sdk-task.mjs', JSON.stringify(replies)], { cwd: project.dir });
    const outcome = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
    expect(outcome).toEqual({
      status: 'success',
      output: 'Changed the greeting.',
      tools: ['list_directory', 'read_file', 'edit_file'],
      file: 'Hi, world\n',
    });
  });

  test('keel --version and keel run work from node_modules/.bin', async () => {
    const keel = join(project.dir, 'node_modules', '.bin', 'keel');
    const version = await run(nodePath(), [keel, '--version'], { cwd: project.dir });
    expect(version.stdout.trim()).toBe('0.1.0');
    // Node 22's "SQLite is an experimental feature" is not shown (nor anything else, here).
    const listed = await run(nodePath(), [keel, 'runs', 'list'], {
      cwd: project.dir,
      env: { ...process.env, RUNTIME_HOME: join(project.dir, '.list-home') },
    });
    expect(listed.stderr).toBe('');

    const script = join(project.dir, 'script.json');
    await writeFile(script, JSON.stringify(replies));
    const mock = spawn(
      nodePath(),
      [join(project.dir, 'node_modules', '.bin', 'keel-mock-model'), '--script', script],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const [line] = (await once(mock.stdout, 'data')) as [Buffer];
      const url = /listening on (\S+)/.exec(line.toString())?.[1];
      expect(url).toBeDefined();
      const workdir = join(project.dir, `work-${Date.now()}`);
      await mkdir(workdir);
      await writeFile(join(workdir, 'greet.txt'), 'Hello, world\n');
      const answer = await run(
        nodePath(),
        [keel, 'run', 'Say hi', '--workdir', workdir, '--model', 'mock-model', '--model-base-url', url ?? ''],
        { cwd: project.dir, env: { ...process.env, RUNTIME_HOME: join(workdir, '.home') } },
      );
      expect(answer.stdout).toContain('Changed the greeting.');
      expect(await readFile(join(workdir, 'greet.txt'), 'utf8')).toBe('Hi, world\n');
    } finally {
      mock.kill();
    }
  });

  // keel-web, then the client and the console: on a busy machine more than the default 20 s.
  test('keel-web run answers /health', async () => {
    const web = spawn(
      nodePath(),
      [join(project.dir, 'node_modules', '.bin', 'keel-web'), 'run', '--port', '0'],
      {
        cwd: project.dir,
        env: { ...process.env, RUNTIME_HOME: join(project.dir, '.web-home') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        web.stdout.on('data', (chunk: Buffer) => {
          output += chunk;
          const found = /(http:\/\/\S+?)\/?\s/.exec(output)?.[1];
          if (found) resolve(found);
        });
        web.on('exit', (code) => reject(new Error(`keel-web exited with ${code}: ${output}`)));
      });
      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', version: '0.1.0' });
      // The installed typed client reads it too (its answers checked against the installed protocol).
      await writeFile(join(project.dir, 'web-client.mjs'), webClientScript);
      const client = await run(nodePath(), ['web-client.mjs', url], { cwd: project.dir });
      expect(JSON.parse(client.stdout)).toMatchObject({ health: 'ok', runs: expect.any(Array) });
      // The browser console comes built, from the installed @keel/workbench-web.
      const page = await (await fetch(`${url}/console`)).text();
      expect(page).toContain('<div id="root"></div>');
      const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(page)?.[1];
      expect((await fetch(`${url}${script}`)).status).toBe(200);
    } finally {
      web.kill();
    }
  }, 90_000);

  // The workbench's row of the README: `npm install @keel/workbench`, then `npx keel-workbench run`.
  test('keel-workbench run answers /health; a start on a taken port leaves no data directory', async () => {
    const bin = join(project.dir, 'node_modules', '.bin', 'keel-workbench');
    const home = join(project.dir, `.workbench-${Date.now()}`);
    const env = { ...process.env, WORKBENCH_HOME: home, RUNTIME_HOME: join(home, 'runtime') };
    const workbench = spawn(nodePath(), [bin, 'run', '--port', '0'], {
      cwd: project.dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      let errors = '';
      workbench.stderr.on('data', (chunk: Buffer) => (errors += chunk));
      const url = await new Promise<string>((resolve, reject) => {
        workbench.stdout.on('data', (chunk: Buffer) => {
          output += chunk;
          const found = /listening on (http:\/\/\S+?)\/?\s/.exec(output)?.[1];
          if (found) resolve(found);
        });
        workbench.on('exit', (code) =>
          reject(new Error(`keel-workbench exited with ${code}: ${output}${errors}`)),
        );
      });
      expect(await (await fetch(`${url}/health`)).json()).toMatchObject({ status: 'ok' });
      expect(errors).not.toContain('ExperimentalWarning');

      // A second start on the same port fails, saying why, and leaves no WORKBENCH_HOME behind.
      const other = join(project.dir, `.workbench-other-${Date.now()}`);
      const failed = await run(nodePath(), [bin, 'run', '--port', new URL(url).port], {
        cwd: project.dir,
        env: { ...process.env, WORKBENCH_HOME: other, RUNTIME_HOME: join(other, 'runtime') },
      }).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toContain('cannot listen on');
      expect(existsSync(other)).toBe(false);
    } finally {
      workbench.kill();
    }
  }, 90_000);
});

test('the base package has exactly three dependencies, and the others load on demand', async () => {
  const manifest = JSON.parse(
    await readFile(join(project.dir, 'node_modules', '@keel', 'runtime', 'package.json'), 'utf8'),
  ) as { dependencies: Record<string, string>; peerDependenciesMeta: Record<string, { optional: boolean }> };
  expect(Object.keys(manifest.dependencies).sort()).toEqual(['diff', 'openai', 'zod']);
  expect(manifest.peerDependenciesMeta).toEqual({
    '@modelcontextprotocol/sdk': { optional: true },
    pyright: { optional: true },
    turndown: { optional: true },
    'typescript-language-server': { optional: true },
    'vscode-languageserver-protocol': { optional: true },
    yaml: { optional: true },
  });
});

// tsc over the installed declarations takes seconds alone and much longer beside other test files.
test('a TypeScript project type-checks against the published declarations', {
  timeout: 120_000,
}, async () => {
  await writeFile(join(project.dir, 'consumer.ts'), consumerTypes);
  await writeFile(
    join(project.dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'nodenext', target: 'es2024', strict: true, noEmit: true, types: ['node'] },
      files: ['consumer.ts'],
    }),
  );
  const tsc = join(import.meta.dirname, '..', '..', '..', 'node_modules', '.bin', 'tsc');
  const result = await run(tsc, ['-p', join(project.dir, 'tsconfig.json')], { cwd: project.dir }).catch(
    (error: { stdout: string }) => ({ stdout: error.stdout, failed: true }),
  );
  expect(result.stdout).toBe('');
});

// The README's install table, row by row, each in a project of its own: what `npm install <package>` gives is
// what the row says (its programs answer --version, its module loads), with nothing else installed.
const readmeRows = [
  ...readFileSync(join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8').matchAll(
    /^\|[^|]+\|\s*`npm install (@keel\/[a-z-]+)`\s*\|/gm,
  ),
].map((match) => match[1]!);

test('the README lists an install row for each published package with a program or an SDK', () => {
  expect(readmeRows).toEqual([
    '@keel/runtime',
    '@keel/cli',
    '@keel/all',
    '@keel/store-postgres',
    '@keel/workbench',
    '@keel/desktop',
  ]);
});

test.each(readmeRows)(
  'npm install %s, alone, gives what its row says',
  async (name) => {
    const dir = join(scratch, `row-${name.replace('@keel/', '')}`);
    await installRow(dir, tarballs, name);
    const manifest = JSON.parse(
      await readFile(join(dir, 'node_modules', ...name.split('/'), 'package.json'), 'utf8'),
    ) as { bin?: Record<string, string>; exports?: Record<string, unknown> };
    for (const bin of Object.keys(manifest.bin ?? {})) {
      const { stdout } = await run(process.execPath, [join(dir, 'node_modules', '.bin', bin), '--version'], {
        cwd: dir,
      });
      expect(stdout.trim(), bin).toBe('0.1.0');
      // `keel --version` answers without loading the program: `--help` does load it.
      const help = await run(process.execPath, [join(dir, 'node_modules', '.bin', bin), '--help'], {
        cwd: dir,
      });
      expect(help.stdout, bin).toContain('Usage:');
    }
    if (manifest.exports?.['.']) {
      const { stdout } = await run(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import('${name}'); console.log(Object.keys(m).length > 0);`,
        ],
        { cwd: dir },
      );
      expect(stdout.trim()).toBe('true');
    }
  },
  300_000,
);
