#!/usr/bin/env node
import { onPinnedNode } from '@keel/runtime/launcher';

if (onPinnedNode(import.meta.url, 'keel-workbench')) {
  const { main } = await import('../dist/main.js');
  process.exitCode = await main(process.argv);
}
