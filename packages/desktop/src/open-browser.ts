import { spawn } from 'node:child_process';

/**
 * Opens `url` in the user's default browser (`xdg-open`, `open` on macOS); only http(s) URLs, so that a
 * page cannot have the shell open a file or run a handler. Answers false when nothing could be started.
 */
export function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return Promise.resolve(false);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return Promise.resolve(false);
  const opener = process.platform === 'darwin' ? 'open' : 'xdg-open';
  return new Promise((resolve) => {
    const child = spawn(opener, [parsed.href], { stdio: 'ignore', detached: true, env });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
