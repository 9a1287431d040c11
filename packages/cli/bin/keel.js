#!/usr/bin/env node
import { onPinnedNode } from '@keel/runtime/launcher';

if (onPinnedNode(import.meta.url, 'keel')) {
  // A reader that stops early (`keel runs list --json | head -1`) closes the pipe: that is not an error.
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  const { main } = await import('../bundle/main.js');
  process.exitCode = await main(process.argv);
}
