export type { RemoteSandboxRecord, RemoteSandboxServer, RemoteSandboxServerOptions } from './server.ts';
export { startRemoteSandboxServer } from './server.ts';
