#!/usr/bin/env node
// Plain JavaScript, so an older Node gets a clear message instead of a syntax error.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(
    `keel-mock-model needs Node 22.13 or newer (this is Node ${process.versions.node}).\n`,
  );
  process.exit(1);
}
await import('../dist/cli.js');
