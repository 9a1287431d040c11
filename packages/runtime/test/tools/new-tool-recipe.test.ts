// AGENTS.md's recipe "A new built-in tool", done as it says: one `defineTool` with honest traits, added to
// the coding tools, and nothing else edited. What the recipe promises follows from the traits alone: the
// model is offered it, `require_approval: ["runs_commands"]` holds its calls, the audit log records them as
// commands, and the specialists get it or not by their capabilities (issue #43, item 6).
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { toolsForType } from '../../src/agents/index.ts';
import { createCodingTools, defineTool } from '../../src/tools/index.ts';
import { startHarness } from '../harness.ts';

const runTests = defineTool({
  name: 'run_tests',
  description: "Runs the project's tests and answers their summary.",
  schema: z.object({ filter: z.string().optional().describe('Only the tests whose name contains this.') }),
  traits: { kind: 'execute', readOnly: false, runsCommands: true, audit: 'command_exec' },
  async execute(_ctx, args) {
    return `3 passed${args.filter ? ` (filter: ${args.filter})` : ''}`;
  },
});

describe('the recipe for a new built-in tool', () => {
  test('offered to the model, held by approval-by-trait, audited as a command, given to specialists by capability', async () => {
    const tools = createCodingTools().register(runTests);
    await using h = await startHarness(
      [
        { toolCalls: [{ name: 'run_tests', arguments: { filter: 'greet' } }] },
        { when: { lastRole: 'tool', lastMessageIncludes: '3 passed' }, text: 'The tests pass.' },
      ],
      {},
      { tools, requireApproval: ['runs_commands'] },
    );
    const run = await h.runtime.start({ prompt: 'run the tests', workdir: h.workdir }, { execute: false });
    expect((await h.runtime.drive(run.id))?.run.status).toBe('waiting');
    const offered = (h.model.chatRequests[0]?.tools ?? []).map(
      (tool: { function?: { name?: string } }) => tool.function?.name,
    );
    expect(offered).toContain('run_tests');
    const [approval] = await h.runtime.approvals.list({ run_id: run.id, status: 'pending' });
    expect(approval?.detail).toMatchObject({ tool_name: 'run_tests', args: { filter: 'greet' } });

    await h.runtime.approvals.approve(approval!.id);
    const outcome = await h.runtime.drive(run.id);
    expect(outcome?.run).toMatchObject({ status: 'succeeded', result: { output: 'The tests pass.' } });
    const { entries } = await h.runtime.audit.list({ event: 'command_exec' });
    expect(entries).toEqual([expect.objectContaining({ tool_name: 'run_tests', success: true })]);

    // Runs commands, writes nothing: the test specialist (read + command) gets it, research and code do not.
    expect(toolsForType('test', tools).has('run_tests')).toBe(true);
    expect(toolsForType('research', tools).has('run_tests')).toBe(false);
    expect(toolsForType('code', tools).has('run_tests')).toBe(false);
  });
});
