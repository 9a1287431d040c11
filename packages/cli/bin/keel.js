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
    // The young generation stays at its start size (2 MB): V8 doubles it, to 32-64 MB, whenever enough
    // survives a scavenge, as a long run's conversation does, and that was most of the peak RSS of a
    // 1,000-step `keel run` (146-149 MB; 121-124 with this, CPU per step the same within noise:
    // docs/performance.md). The one heap flag V8 reads after start (`--max-semi-space-size` only from
    // Node's command line); set before the bundle is loaded, it cost start-up more CPU.
    process.getBuiltinModule('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
    process.exitCode = await main(process.argv);
  }
}
