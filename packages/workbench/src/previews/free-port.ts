import { createServer } from 'node:net';

/**
 * A loopback port free now, chosen by the system among its ephemeral ports (never the workbench's own,
 * nor 3000 or 8000, which its default allowed origins name).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
