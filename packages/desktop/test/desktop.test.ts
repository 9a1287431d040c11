// long-running: a real WebKitGTK window under Xvfb over the real workbench service, a project made ready by a scripted model, and a real notification daemon (~40 s)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockModel } from '@keel/testkit';
import { createWorkbenchClient } from '@keel/workbench-client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eventually, knowledgeScript, repoWithRemote, tempDir } from '../../workbench/test/harness.ts';
import { workbenchBin } from '../src/index.ts';
import {
  alive,
  bin,
  descendants,
  missingPrograms,
  Program,
  screenshot,
  startNotifications,
  startXvfb,
  windowNames,
  workbenchesFor,
} from './desktop-world.ts';

const missing = missingPrograms();
const screenshots = new URL('./screenshots/', import.meta.url).pathname;

const title = missing.length > 0 ? `keel-desktop (skipped: install ${missing.join(', ')})` : 'keel-desktop';

describe.skipIf(missing.length > 0)(title, () => {
  let x: Awaited<ReturnType<typeof startXvfb>>;
  beforeAll(async () => {
    x = await startXvfb();
  });
  afterAll(async () => {
    await x?.program.stop();
  });

  test('a window of the SPA over a service it started; one instance; notifies; quits leaving no process', {
    timeout: 120_000,
  }, async () => {
    const root = tempDir('desktop');
    const home = join(root, 'home');
    const repo = repoWithRemote(root, 'app', { 'src/app.js': 'console.log("hi");\n' });
    await using model = await startMockModel({ script: knowledgeScript(1) });
    const notifications = await startNotifications(x.display, root);
    const env = {
      ...process.env,
      DISPLAY: x.display,
      DBUS_SESSION_BUS_ADDRESS: notifications.address,
      WORKBENCH_HOME: home,
      RUNTIME_HOME: join(root, 'runtime'),
    };
    const shell = new Program(process.execPath, [bin, '--notify'], env);
    try {
      const [, url, servicePid] = await shell.line(/started the workbench for .*: (http\S+) \(pid (\d+)\)/);
      const [, windowPid] = await shell.line(/window open \(pid (\d+)\)/);
      await shell.line(/window shows http\S+ \("Projects"\)/, 'the projects page');
      expect(await eventually(() => windowNames(x.display).includes('Keel workbench'), 'the window')).toBe(
        true,
      );
      mkdirSync(screenshots, { recursive: true });
      // The SPA's page, not an empty window: many colours (text, buttons, the banner).
      const shot = join(screenshots, 'desktop-projects.png');
      await eventually(() => screenshot(x.display, shot) > 50, 'the page on screen');

      // A second launch for the same home brings the first forward and starts nothing.
      const second = new Program(process.execPath, [bin], env);
      expect(await second.exited).toBe(0);
      expect(second.output).toContain(
        `already open for ${home} (pid ${shell.pid}): brought its window forward`,
      );
      expect(workbenchesFor(home)).toEqual([Number(servicePid)]);

      // A task whose initialization ends waits for the user: notified, and counted in the title.
      const client = createWorkbenchClient({ baseUrl: url as string });
      await client.settings.update({ model: 'mock-model', base_url: model.url });
      const project = await client.projects.create({
        name: 'Greeter',
        repositories: [{ path: repo.dir, type: 'frontend' }],
      });
      await eventually(
        async () => (await client.projects.get(project.id)).status === 'READY',
        'READY',
        30_000,
      );
      const task = await client.tasks.create({ project_id: project.id, description: 'Add a greeting' });
      await shell.line(/notified: Initialized: Add a greeting/, 'the notification');
      await notifications.monitor.line(/string "Initialized: Add a greeting"/, 'the daemon to be asked');
      expect((await client.tasks.get(task.id)).init.status).toBe('done');
      expect(await eventually(() => windowNames(x.display).includes('(1) Keel workbench'), 'the count')).toBe(
        true,
      );
      screenshot(x.display, join(screenshots, 'desktop-notified.png'));

      // Quit (as a session's logout or `kill` does): the service and every process below the shell end.
      const processes = [Number(servicePid), Number(windowPid), ...descendants(shell.pid)];
      expect(processes.length).toBeGreaterThan(3); // WebKit's own processes too
      shell.child.kill('SIGTERM');
      expect(await shell.exited).toBe(0);
      expect(shell.output).toContain(`stopped the workbench (pid ${servicePid})`);
      await eventually(() => processes.every((pid) => !alive(pid)), 'every process to end');
      expect(workbenchesFor(home)).toEqual([]);
    } finally {
      await shell.stop();
      await notifications.stop();
    }
  });

  test('uses the workbench already running for its home, and leaves it running when it quits', {
    timeout: 60_000,
  }, async () => {
    const root = tempDir('desktop-attach');
    const env = { ...process.env, DISPLAY: x.display, WORKBENCH_HOME: join(root, 'home') };
    const service = new Program(process.execPath, [workbenchBin(), 'run', '--port', '0'], env);
    const [, url] = await service.line(/listening on (http:\/\/\S+)/);
    const shell = new Program(process.execPath, [bin], env);
    try {
      await shell.line(
        new RegExp(`using the workbench already running for .*: ${url} \\(pid ${service.pid}\\)`),
      );
      await shell.line(/window shows http\S+ \("Projects"\)/, 'the projects page');
      shell.child.kill('SIGTERM');
      expect(await shell.exited).toBe(0);
      expect(shell.output).not.toContain('stopped the workbench');
      expect(alive(service.pid)).toBe(true);
      expect((await fetch(`${url}/api/health`)).ok).toBe(true);
    } finally {
      await shell.stop();
      await service.stop();
    }
  });

  test('with no display it says so and uses the default browser, with the same lifecycle', async () => {
    const root = tempDir('desktop-browser');
    const home = join(root, 'home');
    // The user's browser, as the shell finds it: `xdg-open` on PATH (here one that records what it opens).
    const fakes = join(root, 'bin');
    mkdirSync(fakes);
    const opened = join(root, 'opened.txt');
    writeFileSync(join(fakes, 'xdg-open'), `#!/bin/sh\necho "$1" >> '${opened}'\n`, { mode: 0o755 });
    const env = {
      ...process.env,
      DISPLAY: '',
      WAYLAND_DISPLAY: '',
      WORKBENCH_HOME: home,
      PATH: `${fakes}:${process.env.PATH}`,
    };
    const shell = new Program(process.execPath, [bin], env);
    try {
      const [, url, servicePid] = await shell.line(/started the workbench for .*: (http\S+) \(pid (\d+)\)/);
      await shell.line(/no window can be shown here: no display .*using the default browser instead/);
      await shell.line(/opened http\S+ in the default browser/);
      // The shell has started the opener; the opener writes when it runs.
      expect(
        await eventually(() => existsSync(opened) && readFileSync(opened, 'utf8').trim(), 'the opener'),
      ).toBe(`${url}/`);
      shell.child.kill('SIGINT');
      expect(await shell.exited).toBe(0);
      await eventually(() => !alive(Number(servicePid)), 'the service to end');
    } finally {
      await shell.stop();
    }
  });
});
