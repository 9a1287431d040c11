import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ScriptedReply } from '@keel/testkit';
import { beforeAll, describe, expect, test } from 'vitest';
import type { AgentAdapter } from '../../../src/runners/cli/index.ts';
import {
  claudeCodeAdapter,
  codexAdapter,
  geminiAdapter,
  opencodeAdapter,
} from '../../../src/runners/cli/index.ts';
import { type AgentName, ensureAgent } from './ensure-agents.ts';
import { secretKey, startAgentHarness } from './harness.ts';

const dirs = new Map<AgentName, string>();
beforeAll(async () => {
  for (const name of ['codex', 'opencode', 'claude-code', 'gemini'] as const)
    dirs.set(name, await ensureAgent(name));
}, 600_000);

/** Each agent's own edit call on a.txt, then an answer once the (refused) result is back. */
const cases: Array<{
  name: AgentName;
  adapter: AgentAdapter;
  edit: (workdir: string) => ScriptedReply;
  url: 'url' | 'baseUrl';
}> = [
  {
    name: 'codex',
    adapter: codexAdapter,
    url: 'url',
    edit: () => ({
      toolCalls: [
        {
          name: 'exec_command',
          arguments: {
            cmd: "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: a.txt\n@@\n-hi\n+changed\n*** End Patch\nEOF\n",
          },
        },
      ],
    }),
  },
  {
    name: 'opencode',
    adapter: opencodeAdapter,
    url: 'url',
    edit: () => ({
      toolCalls: [{ name: 'edit', arguments: { filePath: 'a.txt', oldString: 'hi', newString: 'changed' } }],
    }),
  },
  {
    name: 'claude-code',
    adapter: claudeCodeAdapter,
    url: 'baseUrl',
    edit: (workdir) => ({
      toolCalls: [
        {
          name: 'Edit',
          arguments: { file_path: join(workdir, 'a.txt'), old_string: 'hi', new_string: 'changed' },
        },
      ],
    }),
  },
  {
    name: 'gemini',
    adapter: geminiAdapter,
    url: 'baseUrl',
    edit: (workdir) => ({
      toolCalls: [
        {
          name: 'replace',
          arguments: {
            file_path: join(workdir, 'a.txt'),
            old_string: 'hi',
            new_string: 'changed',
            instruction: 'x',
          },
        },
      ],
    }),
  },
];

describe('a read-only request (knowledge generation in the user’s repository) changes nothing', () => {
  for (const { name, adapter, edit, url } of cases) {
    test(`${name}: the edit the model asks for is refused and the file stays as it was`, async () => {
      // Plain order (no `when`): Claude Code ends its requests with a system message of its own.
      await using harness = await startAgentHarness(
        adapter,
        (workdir) => [edit(workdir), { text: 'Could not edit.' }],
        {
          agentsDir: dirs.get(name)!,
        },
      );
      const { events, outcome } = await harness.run({
        readOnly: true,
        model: { model: 'mock-model', baseUrl: harness.model[url], apiKey: secretKey },
      });
      expect(await readFile(join(harness.repo.path, 'a.txt'), 'utf8')).toBe('hi\n');
      expect(outcome).toMatchObject({ status: 'succeeded', output: 'Could not edit.' });
      // Whatever the agent reported, no edit succeeded.
      expect(events).not.toContainEqual(
        expect.objectContaining({ type: 'tool_result', kind: 'file_edit', ok: true }),
      );
    }, 180_000);
  }
});
