import type { ScriptedReply } from '@keel/testkit';
import { startServer } from '../../server/test/harness.ts';
import { createKeelWebClient, type KeelWebClientOptions } from '../src/index.ts';

/** Gives up a wait that should have ended long before (never a sleep: the waits are event-driven). */
export const patience = () => AbortSignal.timeout(30_000);

/** A promise the test resolves when it wants. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A real keel-web (in-process, over the scripted model) and a client of it. */
export async function startWorld(
  script: ScriptedReply[],
  options: Parameters<typeof startServer>[1] = {},
  client: Omit<KeelWebClientOptions, 'baseUrl'> = {},
) {
  const server = await startServer(script, options);
  return Object.assign(server, {
    client: createKeelWebClient({
      baseUrl: server.base,
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      ...client,
    }),
  });
}
