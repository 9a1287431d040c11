import type { ScriptedReply } from '@keel/testkit';
import { expect } from 'vitest';
import { type Api, type Body, eventually, repoWithRemote } from '../harness.ts';

// Small pieces of the agent flows: the repositories, waiting on a session, reading its log, stage timing.

/** How long one stage may take: an agent's cold start on a busy two-core machine, several times over. */
export const stageMs = 240_000;

/** The workbench of the test (startWorkbench's answer), as far as the flow needs it. */
export interface FlowWorkbench {
  base: string;
  api: Api;
  model: { push(...replies: ScriptedReply[]): void; chatRequests: readonly Body[] };
}

/** Two real repositories, each with a bare repository as origin (no MR provider: push and compare only). */
export function twoRepositories(root: string) {
  return {
    frontend: repoWithRemote(root, 'frontend', {
      'src/app.js': 'console.log(1);\n',
      'package.json': '{"name":"fe","scripts":{"test":"node --test"}}',
    }),
    backend: repoWithRemote(root, 'backend', { 'server.js': "export const word = 'hello';\n" }),
  };
}

/**
 * Waits for a session's turn to end (a turn after `previous`, the row as it was before the turn was asked
 * for: right after a 202 the row may still show the last turn) and asserts it succeeded, with its error.
 */
export async function sessionEnded(
  api: Api,
  sessionId: string,
  what: string,
  previous?: Body,
): Promise<Body> {
  const session = await eventually(
    async () => {
      const row = (await api('GET', `/api/sessions/${sessionId}/status`)).body;
      return finished.includes(row.status) && row.ended_at !== previous?.ended_at && row;
    },
    what,
    stageMs,
  );
  expect(session.status, `${what}: ${JSON.stringify(session.error)}`).toBe('succeeded');
  return session;
}

const finished = ['succeeded', 'failed', 'cancelled'];

/** Every event of a session's log. */
export async function eventsOf(api: Api, sessionId: string): Promise<Body[]> {
  return (await api('GET', `/api/sessions/${sessionId}/logs`)).body.entries.map((entry: Body) => entry.event);
}

/** A stage's duration, printed so the report can say where the time goes. */
export function timed(label: string) {
  const started = Date.now();
  return () => console.info(`[${label}] ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
