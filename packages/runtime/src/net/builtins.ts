import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type * as Zlib from 'node:zlib';

// Node's HTTP client and zlib, loaded when first used rather than imported. An `import … from 'node:http'`
// makes the module's ES facade, which reads every export, and `http.WebSocket`, `CloseEvent` and
// `MessageEvent` are lazy getters that load undici (the global fetch's implementation) with tls, http2,
// zlib, perf_hooks and web streams: 18-32 ms of every start-up (nodejs/node#59686). The CommonJS exports
// that `process.getBuiltinModule` answers leave those getters alone. `node:https` and `node:zlib` are
// loaded only by an https URL or an encoded answer.

/** `node:http`, without loading undici. */
export const nodeHttp = (): typeof Http => process.getBuiltinModule('node:http');

/** `node:https`, loaded (with tls) on first use. */
export const nodeHttps = (): typeof Https => process.getBuiltinModule('node:https');

/** `node:zlib`, loaded on first use. */
export const nodeZlib = (): typeof Zlib => process.getBuiltinModule('node:zlib');
