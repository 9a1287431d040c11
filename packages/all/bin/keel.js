#!/usr/bin/env node
// `keel` from the all install: the same program as @keel/cli's.
await import('@keel/cli/bin/keel.js');
