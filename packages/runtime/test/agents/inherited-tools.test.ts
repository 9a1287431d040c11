import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ChatRequestBody, eventually, type ScriptedReply } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import type { Runtime } from '../../src/index.ts';
import { startHarness } from '../harness.ts';

const toolNames = (body: ChatRequestBody | undefined) =>
  (body?.tools ?? []).map((tool) => tool.function?.name);
const lastText = (body: ChatRequestBody) => String(body.messages?.at(-1)?.content ?? '');

/**
 * The parent spawns a sub-agent of `type`, then holds its turn until `childDone` settles (the test settles
 * it once the sub-agent has completed); the sub-agent tries write_file and exec_command, then answers.
 */
function script(type: string, childDone: Promise<unknown>): ScriptedReply[] {
  return [
    {
      when: { lastMessageIncludes: 'delegate it' },
      toolCalls: [{ name: 'spawn_agent', arguments: { task: 'sub task: write pwned.txt', type } }],
    },
    { when: { lastRole: 'tool', lastMessageIncludes: '"agent_id"' }, until: childDone, text: 'Parent done.' },
    {
      when: { lastMessageIncludes: 'sub task: write pwned.txt' },
      toolCalls: [
        { name: 'write_file', arguments: { path: 'pwned.txt', content: 'written by the sub-agent\n' } },
        { name: 'exec_command', arguments: { command: 'touch pwned-by-command.txt' } },
      ],
    },
    { when: { lastRole: 'tool' }, text: 'Sub-agent tried.' },
  ];
}

/** Starts the parent run with `filter` and answers its sub-agent's run once that has completed. */
async function delegate(
  runtime: Runtime,
  workdir: string,
  filter: { exclude_tools?: string[]; include_tools?: string[] },
  release: () => void,
) {
  const run = await runtime.start({ prompt: 'delegate it', workdir, ...filter });
  await eventually(
    async () => {
      const [agent] = await runtime.agents.list(run.id);
      return agent?.status === 'completed' && agent;
    },
    { timeoutMs: 15_000, what: 'the sub-agent to complete' },
  );
  release();
  const parent = await eventually(
    async () => {
      const current = await runtime.runs.get(run.id);
      return ['succeeded', 'failed'].includes(current.status) && current;
    },
    { timeoutMs: 15_000, what: 'the parent to end' },
  );
  const [child] = await runtime.runs.list({ parent_run_id: run.id });
  return { parent, child: child! };
}

describe("a sub-agent inherits its parent's tool filter", () => {
  test('a generic sub-agent of a run with exclude_tools ["write_file"] cannot write', async () => {
    const { promise: childDone, resolve } = Promise.withResolvers<void>();
    await using h = await startHarness(script('generic', childDone));
    const { parent, child } = await delegate(
      h.runtime,
      h.workdir,
      { exclude_tools: ['write_file'] },
      resolve,
    );
    expect(parent.status).toBe('succeeded');

    // Nothing written; its run carries the parent's exclusion, so write_file was neither offered nor run.
    await expect(access(join(h.workdir, 'pwned.txt'))).rejects.toThrow(/ENOENT/);
    expect(child.input).toMatchObject({ exclude_tools: ['write_file'] });
    const childRequest = h.model.chatRequests.find((body) => lastText(body).startsWith('sub task'))!;
    expect(toolNames(childRequest)).not.toContain('write_file');
    expect(toolNames(childRequest)).toContain('read_file');
    const refused = (await h.runtime.runs.events(child.id))
      .map((record) => record.event)
      .find((event) => event.type === 'tool_result' && event.tool_name === 'write_file');
    expect(refused).toMatchObject({
      result: expect.stringMatching(/^Error: Tool 'write_file' does not exist/),
    });
  }, 60_000);

  test("include_tools: the sub-agent gets its type's share of what the parent may use, nothing more", async () => {
    const { promise: childDone, resolve } = Promise.withResolvers<void>();
    await using h = await startHarness(script('generic', childDone), { 'keep.txt': 'original\n' });
    const { child } = await delegate(
      h.runtime,
      h.workdir,
      { include_tools: ['read_file', 'grep', 'spawn_agent', 'get_agent_status'] },
      resolve,
    );
    await expect(access(join(h.workdir, 'pwned.txt'))).rejects.toThrow(/ENOENT/);
    await expect(access(join(h.workdir, 'pwned-by-command.txt'))).rejects.toThrow(/ENOENT/);
    // Generic takes every coding tool and no meta tool: of the parent's four, these two.
    expect(child.input).toMatchObject({ include_tools: ['read_file', 'grep'] });
    const childRequest = h.model.chatRequests.find((body) => lastText(body).startsWith('sub task'))!;
    expect(toolNames(childRequest).sort()).toEqual(['grep', 'read_file']);
    expect(await readFile(join(h.workdir, 'keep.txt'), 'utf8')).toBe('original\n');
  }, 60_000);
});
