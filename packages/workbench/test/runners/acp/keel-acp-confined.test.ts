import { readdirSync } from 'node:fs';
import { createTempDir, createTempGitRepo, startMockModel } from '@keel/testkit';
import { describe, expect, it } from 'vitest';
import { AcpRunner } from '../../../src/runners/acp/index.ts';
import type { RunnerEvent } from '../../../src/runners/index.ts';
import { keelAcpConfig } from '../../../src/runners/resolve-runner.ts';

// Issue #36, item 9: commands of editor agents are refused unless the runner config allows them, and the
// agents get a minimal environment. The built-in keel-acp runner (`keel acp --unconfined-commands refuse`)
// needs neither: Keel confines its own commands (a sandbox, else only what is safe unconfined), so they never
// reach the workbench as permission requests, and it still finds its RUNTIME_HOME.

describe('the built-in keel-acp runner under the editor-agent policy', () => {
  it("runs Keel's own command and answers, with its RUNTIME_HOME and the workbench's model", {
    timeout: 60_000,
  }, async () => {
    await using repo = await createTempGitRepo({ files: { 'a.txt': 'hello\n' } });
    await using runtimeHome = await createTempDir();
    await using home = await createTempDir();
    await using model = await startMockModel({
      script: [
        { toolCalls: [{ id: 'call_ls', name: 'exec_command', arguments: { command: 'ls' } }] },
        { when: { lastRole: 'tool' }, text: 'Listed the files.' },
      ],
    });
    const runner = new AcpRunner({
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home.path,
        RUNTIME_HOME: runtimeHome.path,
      },
    });
    const events: RunnerEvent[] = [];
    const outcome = await runner.run(
      {
        prompt: 'List the files',
        workdir: repo.path,
        model: { model: 'mock-model', baseUrl: model.url, apiKey: 'sk-test-keel-acp' },
        mcpServers: [],
        skillDirs: [],
        config: { ...keelAcpConfig, extra_args: [...keelAcpConfig.extra_args] },
        signal: new AbortController().signal,
      },
      async (event) => {
        events.push(event);
      },
    );
    expect(outcome, JSON.stringify(events)).toMatchObject({
      status: 'succeeded',
      output: 'Listed the files.',
    });
    const result = events.find((event) => event.type === 'tool_result');
    expect(result).toMatchObject({ tool_name: 'exec_command: ls', kind: 'command', ok: true });
    expect(result?.type === 'tool_result' && result.result).toContain('a.txt');
    // keel acp kept its run where the service's RUNTIME_HOME says, not under HOME.
    expect(readdirSync(runtimeHome.path).length).toBeGreaterThan(0);
    expect(readdirSync(home.path)).not.toContain('.runtime');
    // The model was reached with the workbench's key, handed over through keel's environment.
    expect(model.requests.at(-1)?.headers.authorization).toBe('Bearer sk-test-keel-acp');
  });
});
