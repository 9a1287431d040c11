import type { LogEntry, Session } from '@keel/protocol/workbench';
import { describe, expect, test } from 'vitest';
import { repoWithRemote, startWorkbench, tempDir } from '../../workbench/test/harness.ts';
import { createWorkbenchClient, sessionEnded } from '../src/index.ts';
import { gate, patience, planningReplies, taskInPlanning } from './world.ts';

/** The service's live WebSocket connections (@fastify/websocket's server), to drop them from its side. */
function serverSockets(app: unknown): Set<{ terminate(): void }> {
  return (app as { websocketServer: { clients: Set<{ terminate(): void }> } }).websocketServer.clients;
}

describe('sessions.subscribe over WS /api/ws', () => {
  test('a connection dropped mid-run resumes from the last seq: no entry lost, none repeated', {
    timeout: 90_000,
  }, async () => {
    const root = tempDir('client-subscribe');
    const repo = repoWithRemote(root, 'app', { 'src/app.js': 'console.log(1);\n' });
    const planHeld = gate();
    await using wb = await startWorkbench(planningReplies(planHeld.promise));
    const client = createWorkbenchClient({ baseUrl: wb.base });
    const planning = await taskInPlanning(client, repo.dir);
    const sessionId = planning.plan_session_id as string;

    // The subscriber's connections: each one's subscribe messages are recorded; while `refusing`, a new
    // connection goes to a path with no WebSocket (the upgrade fails, as with the service unreachable).
    const subscribes: { after?: number }[] = [];
    let refusing = false;
    let refused = 0;
    // What the subscriber had heard when it noticed the drop: its cursor from then on.
    let heardAtDrop = -1;
    const firstRefusal = gate();
    const webSocket = (url: string) => {
      if (refusing) {
        refused += 1;
        if (heardAtDrop < 0) heardAtDrop = heard.length;
        firstRefusal.open();
        return new WebSocket(url.replace('/api/ws', '/api/no-socket-here'));
      }
      const socket = new WebSocket(url);
      const send = socket.send.bind(socket);
      socket.send = (data) => {
        subscribes.push(JSON.parse(String(data)));
        send(data);
      };
      return socket;
    };
    const subscriber = createWorkbenchClient({
      baseUrl: wb.base,
      webSocket,
      reconnect: { initialDelayMs: 10, maxDelayMs: 100, maxAttempts: 10_000 },
    });

    const heard: LogEntry[] = [];
    const statuses: Session[] = [];
    const firstEvent = gate();
    const ended = gate();
    const stop = new AbortController();
    const following = subscriber.sessions.subscribe(sessionId, {
      onEvent: (entry) => {
        heard.push(entry);
        firstEvent.open();
      },
      onStatus: (session) => {
        statuses.push(session);
        if (sessionEnded(session)) ended.open();
      },
      signal: stop.signal,
    });

    // The turn has started (its first entries are logged) and waits on the model: drop the connection
    // from the service's side, and keep the subscriber away while the rest of the turn is logged.
    await firstEvent.promise;
    refusing = true;
    for (const socket of serverSockets(wb.workbench.app)) socket.terminate();
    await firstRefusal.promise;
    const beforeDrop = heardAtDrop;
    expect(beforeDrop).toBeGreaterThan(0);
    planHeld.open();
    const finished = await client.sessions.waitFor(sessionId, undefined, { signal: patience() });
    expect(finished.status).toBe('succeeded');
    expect(heard).toHaveLength(beforeDrop);

    // Back: the subscriber asks for what came after its cursor, and hears the end of the turn.
    refusing = false;
    await ended.promise;
    stop.abort();
    await following;

    expect(refused).toBeGreaterThan(0);
    expect(subscribes).toEqual([
      { type: 'subscribe', channel: `session:${sessionId}`, after: 0 },
      { type: 'subscribe', channel: `session:${sessionId}`, after: beforeDrop },
    ]);
    const log = await client.sessions.logs(sessionId, { limit: 1000 });
    expect(log.has_more).toBe(false);
    expect(heard.map((entry) => entry.seq)).toEqual(log.entries.map((_, i) => i + 1));
    expect(heard).toEqual(log.entries);
    expect(finished.last_seq).toBe(heard.length);
    // Most of the turn was logged while the subscriber was away, and reached it after the reconnection.
    expect(
      heard.slice(beforeDrop).filter((entry) => entry.event.type === 'text_delta').length,
    ).toBeGreaterThan(10);
    expect(statuses.at(-1)).toMatchObject({ status: 'succeeded', busy: false });
  });

  test('waitFor resolves on the status that ends the work, event-driven', { timeout: 90_000 }, async () => {
    const root = tempDir('client-wait');
    const repo = repoWithRemote(root, 'app', { 'src/app.js': 'console.log(1);\n' });
    const planHeld = gate();
    await using wb = await startWorkbench(planningReplies(planHeld.promise));
    const client = createWorkbenchClient({ baseUrl: wb.base });
    const planning = await taskInPlanning(client, repo.dir);
    const sessionId = planning.plan_session_id as string;
    const seen: string[] = [];
    // Running: the wait has heard the session busy, and has not ended.
    const running = await client.sessions.waitFor(sessionId, (session) => session.status === 'running', {
      signal: patience(),
    });
    expect(running.busy).toBe(true);
    const waiting = client.sessions.waitFor(sessionId, undefined, {
      signal: patience(),
      onEvent: (entry) => seen.push(entry.event.type),
    });
    planHeld.open();
    const ended = await waiting;
    expect(ended).toMatchObject({ status: 'succeeded', busy: false });
    expect(seen).toContain('text_delta');
    // A wait given up rejects with the signal's reason.
    const gaveUp = new AbortController();
    const never = client.sessions.waitFor(sessionId, () => false, { signal: gaveUp.signal });
    gaveUp.abort(new Error('enough'));
    await expect(never).rejects.toThrow('enough');
  });
});
