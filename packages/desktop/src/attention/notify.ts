import { spawn } from 'node:child_process';

/**
 * Shows a desktop notification through `notify-send` (Debian's `libnotify-bin`), the freedesktop
 * notification service's command line; answers false when it cannot (not installed, no session bus), so
 * the shell says so once.
 */
export function notify(title: string, body: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('notify-send', ['--app-name=Keel workbench', '--', title, body], {
      stdio: 'ignore',
      env,
    });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}
