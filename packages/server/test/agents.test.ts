import { type ChatRequestBody, eventually, type ScriptedReply } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

const offset = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;
/** A sub-agent whose model takes a minute to answer: it stays running until it is killed. */
const slow = (task: string): ScriptedReply => ({
  when: { lastMessageIncludes: task },
  delayMs: 60_000,
  text: 'late',
});
const lastText = (body: ChatRequestBody) => String(body.messages?.at(-1)?.content ?? '');

describe('sub-agents over HTTP', () => {
  test('five spawn, the sixth is refused with 429; one is killed, one times out, a failed one resumes', async () => {
    await using s = await startServer([
      slow('alpha'),
      slow('bravo'),
      slow('delta'),
      slow('echo'),
      slow('golf'),
      slow('charlie'),
      // The resumed run's prompt names the previous error; the first run's does not.
      { when: { lastMessageIncludes: 'Previous error' }, text: 'Recovered: the list is ready.' },
      { when: { lastMessageIncludes: 'foxtrot' }, error: { status: 400, message: 'the model broke' } },
    ]);
    /** Polls GET /agent/{id} until its status is `status`. */
    const until = (agentId: string, status: string) =>
      eventually(
        async () => {
          const { body } = await s.api('GET', `/agent/${agentId}`);
          return body.status === status && body;
        },
        { timeoutMs: 15_000, intervalMs: 25, what: `sub-agent ${agentId} to be ${status}` },
      );

    const ids: Record<string, string> = {};
    for (const [task, type] of [
      ['alpha: map the modules', 'research'],
      ['bravo: fix the parser', 'code'],
      ['delta: run the tests', 'test'],
      ['echo: anything', undefined],
      ['golf: more of it', 'generic'],
    ] as const) {
      const spawned = await s.api('POST', '/agent/spawn', { task, ...(type ? { type } : {}) });
      expect(spawned.status).toBe(200);
      expect(spawned.body).toEqual({
        agent_id: expect.stringMatching(/^agt_[0-9a-z]{26}$/),
        status: 'pending',
        created_at: expect.stringMatching(offset),
        run_id: expect.stringMatching(/^run_/),
      });
      ids[task.split(':')[0]!] = spawned.body.agent_id;
    }
    const refused = await s.api('POST', '/agent/spawn', { task: 'hotel: one too many' });
    expect(refused).toEqual({
      status: 429,
      body: {
        error: {
          code: 'AGENT_LIMIT_REACHED',
          message: expect.stringContaining('the limit is 5'),
          details: { limit: 5, active: 5 },
        },
      },
    });

    // Kill: the record says killed at once, and a second kill changes nothing.
    await until(ids.alpha!, 'running');
    const killed = await s.api('DELETE', `/agent/${ids.alpha}`);
    expect(killed).toEqual({ status: 200, body: { agent_id: ids.alpha, killed: true, status: 'killed' } });
    const record = await s.api('GET', `/agent/${ids.alpha}`);
    expect(record.body).toEqual({
      agent_id: ids.alpha,
      status: 'killed',
      output: '',
      error: 'The sub-agent was killed.',
      created_at: expect.stringMatching(offset),
      completed_at: expect.stringMatching(offset),
      type: 'research',
      task: 'alpha: map the modules',
      run_id: expect.stringMatching(/^run_/),
      parent_run_id: null,
      timeout: 300,
    });
    expect((await s.api('DELETE', `/agent/${ids.alpha}`)).body).toEqual({
      agent_id: ids.alpha,
      killed: false,
      status: 'killed',
    });

    // Timeout: one second, then `timeout`, its run failed with TIMEOUT.
    const charlie = await s.api('POST', '/agent/spawn', { task: 'charlie: think hard', timeout: 1 });
    expect(charlie.status).toBe(200);
    const timedOut = await until(charlie.body.agent_id, 'timeout');
    expect(timedOut).toMatchObject({
      timeout: 1,
      output: '',
      error: 'The sub-agent ran past its timeout of 1 s.',
    });
    const charlieRun = await s.api('GET', `/runtime/runs/${timedOut.run_id}`);
    expect(charlieRun.body).toMatchObject({
      status: 'failed',
      error: { code: 'TIMEOUT' },
      agent: { type: 'generic' },
    });

    // Failed, then resumed: a new run of the same agent, whose model request carries the previous error.
    const foxtrot = await s.api('POST', '/agent/spawn', {
      task: 'foxtrot: list the changes',
      type: 'research',
    });
    const failed = await until(foxtrot.body.agent_id, 'failed');
    expect(failed.error).toContain('the model broke');
    const resumed = await s.api('POST', `/agent/${foxtrot.body.agent_id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({
      agent_id: foxtrot.body.agent_id,
      status: 'pending',
      created_at: failed.created_at,
    });
    expect(resumed.body.run_id).not.toBe(failed.run_id);
    const completed = await until(foxtrot.body.agent_id, 'completed');
    expect(completed).toMatchObject({ output: 'Recovered: the list is ready.', error: null });
    const request = s.model.chatRequests.find((body) => lastText(body).includes('Previous error'))!;
    expect(lastText(request)).toContain('Your task: foxtrot: list the changes');
    expect(lastText(request)).toContain(`Previous error: ${failed.error}`);
    const again = await s.api('POST', `/agent/${ids.alpha}/resume`);
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'INVALID_STATE' } } });

    // The sub-agents' runs are runs like any other in the canonical API.
    const { body: page } = await s.api('GET', '/runtime/runs?limit=100');
    expect(page.runs.filter((run: { agent: unknown }) => run.agent !== null)).toHaveLength(8);

    for (const name of ['bravo', 'delta', 'echo', 'golf']) {
      expect((await s.api('DELETE', `/agent/${ids[name]}`)).body).toMatchObject({
        killed: true,
        status: 'killed',
      });
    }
  }, 60_000);

  test('malformed requests get 400 in the error shape; unknown ids 404', async () => {
    await using s = await startServer([slow('sleepy')]);
    const bad: unknown[] = [
      {},
      { task: 5 },
      { task: '' },
      { task: '   ' },
      { task: 'x', type: 'boss' },
      { task: 'x', timeout: -1 },
      { task: 'x', timeout: 0 },
      { task: 'x', timeout: 'soon' },
      { task: 'x', timeout: 100_000 },
      { task: 'x', workdir: '/no/such/dir' },
      [],
      'not json',
    ];
    for (const body of bad) {
      const answer = await s.api('POST', '/agent/spawn', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toEqual({
        error: { code: 'INVALID_PARAMS', message: expect.any(String), details: expect.any(Object) },
      });
    }
    const missing = await s.api('POST', '/agent/spawn', { type: 'code' });
    expect(missing.body.error.details.issues).toEqual([expect.objectContaining({ field: 'body.task' })]);
    const empty = await s.exchange('POST', '/agent/spawn', undefined, { 'content-type': 'application/json' });
    expect(empty.status).toBe(400);

    for (const [method, path] of [
      ['GET', '/agent/agt_missing'],
      ['DELETE', '/agent/agt_missing'],
      ['POST', '/agent/agt_missing/resume'],
      ['GET', `/agent/${'x'.repeat(300)}`],
    ] as const) {
      const answer = await s.api(method, path);
      expect(answer, `${method} ${path}`).toEqual({
        status: 404,
        body: {
          error: { code: 'AGENT_NOT_FOUND', message: expect.any(String), details: expect.any(Object) },
        },
      });
    }
    expect((await s.api('GET', `/agent/${'x'.repeat(2000)}`)).status).toBe(400);

    // timeout null means the default, 300 s.
    const sleepy = await s.api('POST', '/agent/spawn', { task: 'sleepy', timeout: null });
    expect(sleepy.status).toBe(200);
    expect((await s.api('GET', `/agent/${sleepy.body.agent_id}`)).body).toMatchObject({ timeout: 300 });
    const busy = await s.api('POST', `/agent/${sleepy.body.agent_id}/resume`);
    expect(busy).toMatchObject({ status: 409, body: { error: { code: 'INVALID_STATE' } } });
    expect((await s.api('DELETE', `/agent/${sleepy.body.agent_id}`)).body).toMatchObject({ killed: true });
  }, 30_000);

  test('the limit and the default timeout come from configuration `sub_agents`', async () => {
    await using s = await startServer([slow('first'), slow('second')], {
      config: { sub_agents: { max_concurrent: 1, timeout_seconds: 42 } },
    });
    const first = await s.api('POST', '/agent/spawn', { task: 'first' });
    expect((await s.api('GET', `/agent/${first.body.agent_id}`)).body.timeout).toBe(42);
    const second = await s.api('POST', '/agent/spawn', { task: 'second' });
    expect(second).toMatchObject({ status: 429, body: { error: { details: { limit: 1, active: 1 } } } });
    await s.api('DELETE', `/agent/${first.body.agent_id}`);
    const admitted = await s.api('POST', '/agent/spawn', { task: 'second' });
    expect(admitted.status).toBe(200);
    await s.api('DELETE', `/agent/${admitted.body.agent_id}`);
  }, 30_000);

  test('the OpenAPI document has the sub-agent endpoints', async () => {
    await using s = await startServer([]);
    const { body } = await s.api('GET', '/docs/json');
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining(['/agent/spawn', '/agent/{agent_id}', '/agent/{agent_id}/resume']),
    );
    expect(Object.keys(body.paths['/agent/{agent_id}'])).toEqual(expect.arrayContaining(['get', 'delete']));
    // The body is a named schema (issue #40): read it where the `$ref` points.
    const { $ref } = body.paths['/agent/spawn'].post.requestBody.content['application/json'].schema;
    const spawn = body.components.schemas[$ref.replace('#/components/schemas/', '')];
    expect(spawn).toMatchObject({
      required: ['task'],
      properties: { type: { enum: ['code', 'research', 'test', 'generic'] }, timeout: expect.any(Object) },
    });
  });
});
