import { connect } from 'node:net';

/** Sends raw bytes to an HTTP server and answers the status and parsed JSON body it writes back. */
export function rawRequest(base: string, bytes: string): Promise<{ status: number; body: unknown }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(reply)?.[1]);
      const body = reply.slice(reply.indexOf('\r\n\r\n') + 4);
      try {
        resolve({ status, body: JSON.parse(body) });
      } catch {
        reject(new Error(`not JSON: ${reply.slice(0, 300)}`));
      }
    });
  });
}
