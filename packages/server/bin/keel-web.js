#!/usr/bin/env node
import { onPinnedNode } from '@keel/runtime/launcher';

if (onPinnedNode(import.meta.url, 'keel-web')) {
  const { main } = await import('../src/main.ts');
  process.exitCode = await main(process.argv);
}
