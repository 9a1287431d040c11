#!/usr/bin/env node
// `keel-web` from the all install: the same program as @keel/server's.
await import('@keel/server/bin/keel-web.js');
