export { main } from './main.ts';
export { RuntimePool } from './runtime-pool.ts';
export { createServer, type ServerOptions } from './server.ts';
