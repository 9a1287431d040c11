#!/usr/bin/env node
import { onPinnedNode } from '@keel/runtime/launcher';

if (onPinnedNode(import.meta.url, 'keel-desktop')) {
  const { main } = await import('../dist/main.js');
  process.exitCode = await main(process.argv.slice(2));
}
