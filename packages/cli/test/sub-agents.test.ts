import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { waitForFileCommand } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { keel, keelJson, startKeel, waitFor } from './keel-process.ts';
import { scenario } from './scenario.ts';

interface Run {
  id: string;
  status: string;
  parent_run_id: string | null;
  agent: { agent_id: string; type: string; task: string } | null;
}

describe('sub-agents in keel', () => {
  test('keel run shows its sub-agent start and end while it waits; keel runs lists and shows the child run', async () => {
    await using s = await scenario([
      {
        when: { lastMessageIncludes: 'lead the survey' },
        toolCalls: [
          { name: 'spawn_agent', arguments: { task: 'survey the parser', type: 'research' } },
          { name: 'exec_command', arguments: { command: waitForFileCommand('go', 'gate-open') } },
        ],
      },
      { when: { lastMessageIncludes: 'survey the parser' }, text: 'Parser survey: all fine.' },
    ]);
    const running = startKeel(['run', 'lead the survey', '-w', s.repo.path], s.env);
    const child = await waitFor(async () => {
      const { runs } = await keelJson<{ runs: Run[] }>(['runs', 'list', '-w', s.repo.path], s.env);
      return runs.find((run) => run.agent !== null);
    });
    s.model.push(
      {
        when: { lastRole: 'tool', lastMessageIncludes: 'gate-open' },
        toolCalls: [{ name: 'get_agent_status', arguments: { agent_id: child.agent!.agent_id, wait: true } }],
      },
      { when: { lastRole: 'tool', lastMessageIncludes: 'Parser survey' }, text: 'The survey is done.' },
    );
    await writeFile(join(s.repo.path, 'go'), '');
    const ran = await running.done;
    expect(ran.stderr).not.toContain('Error');
    expect(ran).toMatchObject({ code: 0, stdout: 'The survey is done.\n' });
    const agentId = child.agent!.agent_id;
    expect(ran.stderr).toContain(`↳ sub-agent ${agentId} (research): survey the parser`);
    expect(ran.stderr).toContain(`↳ sub-agent ${agentId} completed`);

    const list = await keel(['runs', 'list', '-w', s.repo.path], s.env);
    expect(list.stdout).toMatch(
      new RegExp(`^${child.id} +succeeded +.* ↳ research: survey the parser$`, 'm'),
    );
    const parentId = child.parent_run_id!;
    const children = await keel(['runs', 'list', '--parent', parentId, '-w', s.repo.path], s.env);
    expect(children.stdout.trim().split('\n')).toHaveLength(1);
    expect(children.stdout).toContain(child.id);
    const shown = await keel(['runs', 'show', child.id, '-w', s.repo.path], s.env);
    expect(shown.stdout).toMatch(
      new RegExp(`^Sub-agent +${agentId} \\(research\\), spawned by ${parentId}, timeout 300 s$`, 'm'),
    );
  }, 60_000);
});
