#!/usr/bin/env node
// Tiny shim: the CLI is TypeScript, run by Node's type stripping (Node 24+).
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(`keel-mock-model needs Node 24 or newer (this is Node ${process.versions.node}).\n`);
  process.exit(1);
}
await import('../src/cli.ts');
