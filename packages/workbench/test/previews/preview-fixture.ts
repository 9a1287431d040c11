import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { descendants } from '../../src/previews/process-tree.ts';
import { type Api, type Body, eventually, repoWithRemote } from '../harness.ts';

export const hasBwrap = existsSync('/usr/bin/bwrap');

// A small HTTP server on $PORT and $HOST that says what it does; the stubborn one ignores SIGTERM.
const server = (stubborn: boolean) => `const http = require('node:http');
${stubborn ? "process.on('SIGTERM', () => console.log('ignoring SIGTERM'));\n" : ''}http
  .createServer((request, response) => {
    console.log('GET ' + request.url);
    response.end('hello from the preview');
  })
  .listen(Number(process.env.PORT), process.env.HOST, () =>
    console.log('listening on ' + process.env.HOST + ':' + process.env.PORT),
  );
`;

/** A repository whose `dev` script serves HTTP on $PORT (`npm run dev`), with a stubborn variant beside it. */
export function serverRepository(root: string) {
  return repoWithRemote(root, 'app', {
    'package.json': JSON.stringify({ name: 'app', private: true, scripts: { dev: 'node server.js' } }),
    'server.js': server(false),
    'stubborn.js': server(true),
  });
}

/** A READY project of `repoDir` and a task whose init is done (its workspace cloned). */
export async function taskWithWorkspace(api: Api, repoDir: string): Promise<{ project: Body; task: Body }> {
  const project = (
    await api('POST', '/api/projects', { name: 'p', repositories: [{ path: repoDir, type: 'frontend' }] })
  ).body;
  await eventually(
    async () => (await api('GET', `/api/projects/${project.id}`)).body.status === 'READY',
    'READY',
  );
  const created = (await api('POST', '/api/tasks', { project_id: project.id, description: 'A task' })).body;
  await eventually(
    async () => (await api('GET', `/api/tasks/${created.id}`)).body.init.status === 'done',
    'init done',
    60_000,
  );
  return { project, task: (await api('GET', `/api/tasks/${created.id}`)).body };
}

/** The process the workbench started and every process under it, with the one that runs `script`. */
export function processesOf(pid: number, script: string): { all: number[]; server: number } {
  const all = [pid, ...descendants(pid)];
  const server = all.find((each) => commandLine(each).includes(script));
  expect(server, `a process running ${script} under ${pid}`).toBeDefined();
  return { all, server: server as number };
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** Whether process `pid` (negative: process group) is gone: kill(…, 0) throws ESRCH. */
export function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
