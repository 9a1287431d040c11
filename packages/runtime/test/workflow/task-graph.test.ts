import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatRequestBody, ScriptedReply } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import type { Workflow } from '../../src/index.ts';
import { startHarness } from '../harness.ts';

// A planner writes a four-task graph: t1 (research) first, then t2 (code) and t3 (test) at once, then
// t4 (docs, a specialist from configuration) on both. t3's specialist fails; the fallback takes it.
const plan = {
  tasks: [
    { id: 't1', capability: 'research', task: 'TASK-1 find the parser', depends_on: [] },
    { id: 't2', capability: 'code', task: 'TASK-2 fix the parser', depends_on: ['t1'] },
    { id: 't3', capability: 'test', task: 'TASK-3 run the tests', depends_on: ['t1'] },
    { id: 't4', capability: 'docs', task: 'TASK-4 document the fix', depends_on: ['t2', 't3'] },
  ],
};

/** The script, with t2 or t3's fallback slow: the two branches finish in the order asked for. */
function script(slow: 't2' | 't3'): ScriptedReply[] {
  return [
    {
      when: { lastMessageIncludes: 'Break the request' },
      text: `Here is the plan:\n${JSON.stringify(plan)}`,
    },
    { when: { lastMessageIncludes: 'TASK-1' }, text: 'The parser is src/parse.ts.' },
    { when: { lastMessageIncludes: 'TASK-2' }, text: 'Fixed the parser.', delayMs: slow === 't2' ? 400 : 0 },
    { when: { lastMessageIncludes: 'TASK-3' }, error: { status: 400, message: 'the test model is down' } },
    { when: { lastMessageIncludes: 'TASK-3' }, text: 'All 12 tests pass.', delayMs: slow === 't3' ? 400 : 0 },
    { when: { lastMessageIncludes: 'TASK-4' }, text: 'Documented in README.md.' },
  ];
}

const workflow: Workflow = { root: { id: 'graph', kind: 'task_graph' } };

async function runGraph(slow: 't2' | 't3') {
  const h = await startHarness(script(slow), { 'src/parse.ts': 'export {};\n' });
  const docs = {
    description: 'writes documentation',
    prompt: 'You are DOCS-WRITER.',
    tools: ['read_file', 'write_file'],
  };
  await writeFile(
    join(h.runtimeDir, 'config.json'),
    JSON.stringify({ sub_agents: { specialists: { docs } } }),
  );
  const result = await h.runtime.run({ prompt: 'Fix the parser bug', workdir: h.workdir }, { workflow });
  const steps = await h.runtime.runs.steps(result.run_id);
  const [artifact] = await h.runtime.runs.artifacts(result.run_id);
  const tasks = Buffer.from(await h.runtime.artifacts.read(artifact!.id)).toString('utf8');
  return { h, result, steps, artifact, tasks };
}

/** The request whose task text includes `marker` (the first one, or the `nth`). */
function requestFor(requests: readonly ChatRequestBody[], marker: string, nth = 1): ChatRequestBody {
  const found = requests.filter((request) => String(request.messages?.at(-1)?.content).includes(marker));
  return found[nth - 1]!;
}
const toolsOf = (request: ChatRequestBody) => (request.tools ?? []).map((tool) => tool.function?.name).sort();
const systemOf = (request: ChatRequestBody) => String(request.messages?.[0]?.content);

describe('task graphs', () => {
  test('plans four tasks, routes each by capability, falls back, and aggregates the same whatever finishes first', async () => {
    const first = await runGraph('t2');
    const second = await runGraph('t3');
    try {
      // The two branches really ran at once, and finished in opposite orders.
      const finished = (run: typeof first, node: string) =>
        run.steps.filter((step) => step.node_id === node && step.kind === 'model_turn').at(-1)!.ended_at!;
      expect(Date.parse(finished(first, 'graph.t3.fallback'))).toBeLessThan(
        Date.parse(finished(first, 'graph.t2')),
      );
      expect(Date.parse(finished(second, 'graph.t2'))).toBeLessThan(
        Date.parse(finished(second, 'graph.t3.fallback')),
      );

      // Byte-identical aggregates and task records (but for the port of each run's own model server).
      const port = (text: string) => text.replaceAll(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT');
      expect(port(second.result.output)).toBe(port(first.result.output));
      expect(port(second.tasks)).toBe(port(first.tasks));
      expect(port(first.result.output)).toBe(
        [
          '## t1 · research (research)\n\nThe parser is src/parse.ts.',
          '## t2 · code (code)\n\nFixed the parser.',
          '## t3 · test (generic, as fallback: test failed: The model endpoint http://127.0.0.1:PORT/v1 answered HTTP 400: 400 the test model is down.)\n\nAll 12 tests pass.',
          '## t4 · docs (docs)\n\nDocumented in README.md.',
        ].join('\n\n'),
      );
      expect(first.artifact).toMatchObject({ kind: 'tasks', name: 'graph-tasks.json', node_id: 'graph' });
      expect(
        JSON.parse(first.tasks).tasks.map((each: { id: string; specialist: string; status: string }) => [
          each.id,
          each.specialist,
          each.status,
        ]),
      ).toEqual([
        ['t1', 'research', 'succeeded'],
        ['t2', 'code', 'succeeded'],
        ['t3', 'generic', 'succeeded'],
        ['t4', 'docs', 'succeeded'],
      ]);

      // Each task went to its specialist: its tools and its role.
      const requests = first.h.model.chatRequests;
      expect(toolsOf(requestFor(requests, 'Break the request'))).not.toContain('write_file');
      expect(toolsOf(requestFor(requests, 'TASK-1'))).not.toContain('write_file');
      expect(toolsOf(requestFor(requests, 'TASK-2'))).toContain('edit_file');
      expect(toolsOf(requestFor(requests, 'TASK-2'))).not.toContain('exec_command');
      expect(toolsOf(requestFor(requests, 'TASK-3'))).toContain('exec_command');
      expect(toolsOf(requestFor(requests, 'TASK-3'))).not.toContain('write_file');
      const fallback = requestFor(requests, 'TASK-3', 2);
      expect(toolsOf(fallback)).toEqual(expect.arrayContaining(['edit_file', 'exec_command']));
      expect(String(fallback.messages?.at(-1)?.content)).toContain('because test failed');
      const docs = requestFor(requests, 'TASK-4');
      expect(toolsOf(docs)).toEqual(['read_file', 'write_file']);
      expect(systemOf(docs)).toContain('You are DOCS-WRITER.');
      // t4 builds on t2 and t3: their results, in task-id order.
      expect(String(docs.messages?.at(-1)?.content)).toMatch(
        /## t2 \(code\)\nFixed the parser\.\n\n## t3 \(test\)\nAll 12/,
      );
    } finally {
      await first.h[Symbol.asyncDispose]();
      await second.h[Symbol.asyncDispose]();
    }
  });

  test('a task whose capability no specialist serves goes to the fallback; a bad plan fails the run and says why', async () => {
    await using h = await startHarness([
      {
        when: { lastMessageIncludes: 'Break the request' },
        text: JSON.stringify({ tasks: [{ id: 'a', capability: 'design', task: 'TASK-A draw it' }] }),
      },
      { when: { lastMessageIncludes: 'TASK-A' }, text: 'Drawn.' },
      {
        when: { lastMessageIncludes: 'Break the request' },
        text: '{"tasks": [{"id": "a", "capability": "code", "task": "x", "depends_on": ["a"]}]}',
      },
    ]);
    const routed = await h.runtime.run({ prompt: 'Draw it', workdir: h.workdir }, { workflow });
    expect(routed.output).toBe(
      "## a · design (generic, as fallback: no specialist for capability 'design')\n\nDrawn.",
    );

    const bad = await h.collect({ prompt: 'Loop' }, undefined, workflow);
    expect(bad.error).toMatchObject({ code: 'AGENT_ERROR' });
    expect(String((bad.error as Error).message)).toContain('cycle: a -> a');
  });

  test('a task that fails with its fallback fails the graph; every task depending on it, however listed, is skipped', async () => {
    await using h = await startHarness([
      { when: { lastMessageIncludes: 'TASK-A' }, error: { status: 400, message: 'down' }, repeat: true },
    ]);
    const chain: Workflow = {
      root: {
        id: 'g',
        kind: 'task_graph',
        tasks: [
          { id: 'b', capability: 'code', task: 'TASK-B', depends_on: ['c'] },
          { id: 'c', capability: 'code', task: 'TASK-C', depends_on: ['a'] },
          { id: 'a', capability: 'research', task: 'TASK-A' },
        ],
      },
    };
    const run = await h.collect({ prompt: 'x' }, undefined, chain);
    expect(run.error).toMatchObject({ code: 'AGENT_ERROR' });
    const [latest] = await h.runtime.runs.list({ limit: 1 });
    const [artifact] = await h.runtime.runs.artifacts(latest!.id);
    const saved = JSON.parse(Buffer.from(await h.runtime.artifacts.read(artifact!.id)).toString('utf8'));
    expect(saved.tasks.map((each: { id: string; status: string }) => `${each.id}:${each.status}`)).toEqual([
      'a:failed',
      'b:skipped',
      'c:skipped',
    ]);
  });

  test('given tasks need no planner; parseWorkflow refuses unknown dependencies and cycles', async () => {
    const { parseWorkflow } = await import('../../src/internal.ts');
    const bad = (tasks: unknown) => () => parseWorkflow({ root: { id: 'g', kind: 'task_graph', tasks } });
    expect(bad([{ id: 'a', capability: 'code', task: 'x', depends_on: ['b'] }])).toThrow(/unknown task 'b'/);
    expect(
      bad([
        { id: 'a', capability: 'code', task: 'x', depends_on: ['b'] },
        { id: 'b', capability: 'code', task: 'y', depends_on: ['a'] },
      ]),
    ).toThrow(/cycle: a -> b -> a/);
    expect(bad([{ id: 'a b', capability: 'code', task: 'x' }])).toThrow(/task ids are/);
    expect(() => parseWorkflow({ root: { id: 'g', kind: 'gate' } })).toThrow(/nothing to check/);
  });
});
