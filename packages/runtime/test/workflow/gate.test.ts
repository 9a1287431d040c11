import type { ChatRequestBody } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import type { Workflow } from '../../src/index.ts';
import { startHarness } from '../harness.ts';

// The project's "test suite": passes once fixes.txt holds two lines.
const checkScript = [
  "const fs = require('node:fs');",
  "const text = fs.existsSync('fixes.txt') ? fs.readFileSync('fixes.txt', 'utf8') : '';",
  'const n = text.split("\\n").filter(Boolean).length;',
  "if (n < 2) { console.log('FAIL: ' + n + ' of 2 fixes'); process.exit(1); }",
  "console.log('ok: 2 fixes');",
].join('\n');

const lastMessage = (request: ChatRequestBody) => String(request.messages?.at(-1)?.content);
const toolsOf = (request: ChatRequestBody) => (request.tools ?? []).map((tool) => tool.function?.name);

async function reviews(h: Awaited<ReturnType<typeof startHarness>>, runId: string) {
  const artifacts = await h.runtime.runs.artifacts(runId);
  return Promise.all(
    artifacts.map(async (artifact) => ({
      name: artifact.name,
      kind: artifact.kind,
      data: JSON.parse(Buffer.from(await h.runtime.artifacts.read(artifact.id)).toString('utf8')),
    })),
  );
}

describe('quality gates with commands and a reviewer', () => {
  test('a test command failing twice then passing: exactly two repairs, each shown the failure; three verdicts saved', async () => {
    await using h = await startHarness(
      [
        {
          when: { lastMessageIncludes: "What quality gate 'quality' found" },
          toolCalls: [{ name: 'exec_command', arguments: { command: 'echo fix >> fixes.txt' } }],
          repeat: true,
        },
        { when: { lastRole: 'tool' }, text: 'Added a fix.', repeat: true },
      ],
      { 'check.js': checkScript },
    );
    const workflow: Workflow = {
      root: {
        id: 'quality',
        kind: 'gate',
        commands: ['node check.js'],
        repair: { id: 'fixer', kind: 'agent', prompt: 'Fix what the checks found.' },
        max_repairs: 3,
      },
    };
    const result = await h.runtime.run({ prompt: 'Make the tests pass', workdir: h.workdir }, { workflow });
    expect(JSON.parse(result.output)).toEqual({ passed: true, repairs: 2 });

    const repairs = h.model.chatRequests.filter((request) =>
      lastMessage(request).includes('What quality gate'),
    );
    expect(repairs).toHaveLength(2);
    expect(lastMessage(repairs[0]!)).toContain(
      'The command `node check.js` failed (exit code 1):\nFAIL: 0 of 2 fixes',
    );
    expect(lastMessage(repairs[1]!)).toContain('FAIL: 1 of 2 fixes');

    const saved = await reviews(h, result.run_id);
    expect(saved.map((each) => [each.name, each.kind])).toEqual([
      ['quality-review-0.json', 'review'],
      ['quality-review-1.json', 'review'],
      ['quality-review-2.json', 'review'],
    ]);
    const last = saved.at(-1)!.data;
    expect(last).toMatchObject({ gate: 'quality', passed: true, repairs: 2, max_repairs: 3 });
    expect(last.verdicts).toEqual([
      {
        repairs: 0,
        passed: false,
        checks: [
          {
            kind: 'command',
            command: 'node check.js',
            passed: false,
            exit_code: 1,
            output: 'FAIL: 0 of 2 fixes\n',
          },
        ],
      },
      {
        repairs: 1,
        passed: false,
        checks: [
          {
            kind: 'command',
            command: 'node check.js',
            passed: false,
            exit_code: 1,
            output: 'FAIL: 1 of 2 fixes\n',
          },
        ],
      },
      {
        repairs: 2,
        passed: true,
        checks: [
          { kind: 'command', command: 'node check.js', passed: true, exit_code: 0, output: 'ok: 2 fixes\n' },
        ],
      },
    ]);
  });

  test("a reviewer's structured verdict fails the work, the repair sees its reasons, the next verdict passes", async () => {
    await using h = await startHarness([
      {
        when: { lastMessageIncludes: 'Review the work done' },
        text: '{"verdict": "fail", "reasons": ["hello.txt is missing"]}',
      },
      { when: { lastMessageIncludes: 'Fix it.' }, text: 'Created hello.txt.' },
      {
        when: { lastMessageIncludes: 'Review the work done' },
        text: 'Looks right now.\n```json\n{"verdict": "pass", "reasons": []}\n```',
      },
    ]);
    const workflow: Workflow = {
      root: {
        id: 'review',
        kind: 'gate',
        reviewer: { prompt: 'Greet the world in hello.txt' },
        repair: { id: 'fix', kind: 'agent', prompt: 'Fix it.' },
      },
    };
    const result = await h.runtime.run({ prompt: 'Greet', workdir: h.workdir }, { workflow });
    expect(JSON.parse(result.output)).toEqual({ passed: true, repairs: 1 });

    const reviewer = h.model.chatRequests.find((request) =>
      lastMessage(request).includes('Review the work done'),
    )!;
    expect(lastMessage(reviewer)).toContain('Greet the world in hello.txt');
    expect(toolsOf(reviewer)).toContain('read_file');
    expect(toolsOf(reviewer)).not.toContain('write_file');
    expect(toolsOf(reviewer)).not.toContain('exec_command');
    const repair = h.model.chatRequests.find((request) => lastMessage(request).includes('Fix it.'))!;
    expect(lastMessage(repair)).toContain('The reviewer failed the work:\n- hello.txt is missing');

    const last = (await reviews(h, result.run_id)).at(-1)!.data;
    expect(last.verdicts).toEqual([
      {
        repairs: 0,
        passed: false,
        checks: [
          { kind: 'reviewer', specialist: 'reviewer', passed: false, reasons: ['hello.txt is missing'] },
        ],
      },
      {
        repairs: 1,
        passed: true,
        checks: [{ kind: 'reviewer', specialist: 'reviewer', passed: true, reasons: [] }],
      },
    ]);
  });

  test('a reviewer answering without a verdict fails the gate; with no repairs left the run fails and says what failed', async () => {
    await using h = await startHarness([
      { when: { lastMessageIncludes: 'Review the work done' }, text: 'Seems fine to me.' },
    ]);
    const workflow: Workflow = {
      root: { id: 'strict', kind: 'gate', commands: ['echo checked'], reviewer: {}, max_repairs: 0 },
    };
    const run = await h.collect({ prompt: 'Anything' }, undefined, workflow);
    expect(run.error).toMatchObject({ code: 'AGENT_ERROR' });
    const failures = (run.error as { details: { failures: string } }).details.failures;
    expect(failures).toBe(
      'The reviewer failed the work:\n- The reviewer did not answer with a verdict in the required form.',
    );
  });
});
