#!/usr/bin/env node
import { onPinnedNode } from '@keel/runtime/launcher';

if (onPinnedNode(import.meta.url, 'keel')) {
  const args = process.argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    // What commander would print, without loading it and the command table: a fifth of `keel --version`.
    const { readFileSync } = process.getBuiltinModule('node:fs');
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    process.stdout.write(`${version}\n`);
  } else {
    // A reader that stops early (`keel runs list --json | head -1`) closes the pipe: that is not an error.
    process.stdout.on('error', (error) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
    const { main } = await import('../bundle/main.js');
    process.exitCode = await main(process.argv);
  }
}
