import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually, waitForFileCommand } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import type { SubAgent } from '../../src/index.ts';
import { startHarness } from '../harness.ts';

const worker = new URL('./crash-worker.ts', import.meta.url).pathname;

describe('sub-agents survive a crash', () => {
  test('kill -9 mid-answer: the sub-agent’s run is recovered like any run and wakes its parked parent', async () => {
    await using h = await startHarness([
      {
        when: { lastMessageIncludes: 'delegate the survey' },
        toolCalls: [
          { name: 'spawn_agent', arguments: { task: 'survey the repo', type: 'research' } },
          { name: 'exec_command', arguments: { command: waitForFileCommand('go', 'gate-open') } },
        ],
      },
      { when: { lastMessageIncludes: 'survey the repo' }, text: 'word '.repeat(600), chunkDelayMs: 25 },
    ]);
    const child = spawn(process.execPath, [
      worker,
      h.runtimeDir,
      h.model.url,
      h.workdir,
      'delegate the survey',
    ]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    let parentId = '';
    let agent: SubAgent | undefined;
    try {
      parentId = await eventually(() => /run (run_\w+)/.exec(stdout)?.[1], {
        timeoutMs: 15_000,
        what: () => `the worker to start its run; stderr: ${stderr}`,
      });
      [agent] = await eventually(
        async () => {
          const list = await h.runtime.agents.list(parentId);
          return list.length === 1 && list;
        },
        { timeoutMs: 15_000 },
      );
      h.model.push({
        when: { lastRole: 'tool', lastMessageIncludes: 'gate-open' },
        toolCalls: [{ name: 'get_agent_status', arguments: { agent_id: agent!.agent_id, wait: true } }],
      });
      await writeFile(join(h.workdir, 'go'), '');
      // The parent parks on its sub-agent, which is mid-answer in the worker process: kill it there.
      await eventually(
        async () => {
          const parent = await h.runtime.runs.get(parentId);
          const events = await h.runtime.runs.events(agent!.run_id);
          return (
            parent.status === 'waiting' && events.filter((r) => r.event.type === 'text_delta').length > 3
          );
        },
        { timeoutMs: 15_000, what: 'the parent to park while its sub-agent streams' },
      );
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
    } finally {
      child.kill('SIGKILL');
    }

    // What the crash left: a parent waiting (holding no worker) and a sub-agent whose worker is gone.
    const orphan = await h.runtime.runs.get(agent!.run_id);
    expect(orphan.status).toBe('running');
    expect(h.runtime.runs.isOrphaned(orphan)).toBe(true);
    expect((await h.runtime.agents.get(agent!.agent_id)).status).toBe('running');
    expect((await h.runtime.runs.get(parentId)).lease_owner).toBeNull();

    // Recovered as any run is: from its last checkpoint, here in this process.
    h.model.push(
      { when: { lastMessageIncludes: 'survey the repo' }, text: 'Survey: three packages.' },
      {
        when: { lastRole: 'tool', lastMessageIncludes: 'Survey: three packages' },
        text: 'The survey says three.',
      },
    );
    expect((await h.runtime.runs.recover(agent!.run_id)).status).toBe('queued');
    const outcome = await h.runtime.drive(agent!.run_id);
    expect(outcome?.run.status).toBe('succeeded');
    expect(await h.runtime.agents.get(agent!.agent_id)).toMatchObject({
      status: 'completed',
      output: 'Survey: three packages.',
    });
    const steps = await h.runtime.runs.steps(agent!.run_id);
    expect(steps.map((step) => `${step.kind}:${step.status}`)).toEqual([
      'model_turn:abandoned',
      'model_turn:succeeded',
    ]);
    const childEvents = await h.runtime.runs.events(agent!.run_id);
    expect(childEvents.map((r) => r.seq)).toEqual(childEvents.map((_, index) => index + 1));

    // Its end woke the parent (queued again); continuing it reads the answer the recovered run gave.
    expect((await h.runtime.runs.get(parentId)).status).toBe('queued');
    const parent = await h.runtime.drive(parentId);
    expect(parent?.run.status).toBe('succeeded');
    expect((parent!.run.result as { output: string }).output).toBe('The survey says three.');
    const parentEvents = await h.runtime.runs.events(parentId);
    expect(parentEvents.map((r) => r.event.type)).toEqual(
      expect.arrayContaining(['agent_spawned', 'agent_finished', 'done']),
    );
    expect(parentEvents.map((r) => r.seq)).toEqual(parentEvents.map((_, index) => index + 1));
  }, 60_000);
});
