import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTempDir, eventually } from '@keel/testkit';
import { describe, expect, it } from 'vitest';
import { secretKey, startAcpHarness } from './acp-harness.ts';

describe('AcpRunner with a fake ACP agent', () => {
  it('allows an edit inside the workspace (once), refuses the command by default, serves the write', async () => {
    await using h = await startAcpHarness();
    const target = join(h.repo.path, 'a.txt');
    const { events, outcome, text } = await h.run({}, { FAKE_SCENARIO: 'edit', FAKE_TARGET: target });
    expect(outcome).toMatchObject({ status: 'succeeded', runnerSessionId: 'fake-session-1' });
    expect(text).toBe('edit=once execute=reject write=ok');
    expect(await readFile(target, 'utf8')).toBe('edited by fake\n');
    expect(events[0]).toEqual({ type: 'runner_started', runner: 'acp', runner_session_id: 'fake-session-1' });
    const call = events.find((event) => event.type === 'tool_call' && event.tool_call_id === 't1');
    expect(call).toMatchObject({ tool_call_id: 't1', tool_name: 'write', kind: 'file_edit', path: 'a.txt' });
    expect(call).toMatchObject({ args: { filePath: target } });
    const result = events.find((event) => event.type === 'tool_result' && event.tool_call_id === 't1');
    expect(result).toMatchObject({ tool_call_id: 't1', kind: 'file_edit', ok: true, result: 'ok' });
    expect(events).toContainEqual({
      type: 'usage',
      usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
    });
    expect(outcome.output).toBe(text);
  });

  it('other starts of the same agent on the same data wait until the first has opened its session', async () => {
    await using h = await startAcpHarness();
    const log = join(h.bin.path, 'starts.log');
    const env = { FAKE_SCENARIO: 'echo', FAKE_LOG: log };
    const outcomes = await Promise.all([h.run({}, env), h.run({}, env), h.run({}, env)]);
    expect(outcomes.map(({ outcome }) => outcome.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const lines = (await readFile(log, 'utf8')).trim().split('\n');
    // The first agent opened its session before the other two started; those two then ran together.
    expect(lines.slice(0, 2)).toEqual(['start', 'opened']);
    expect(lines.filter((line) => line === 'start')).toHaveLength(3);
  });

  it('read-only: rejects the edit and the command, refuses the write', async () => {
    await using h = await startAcpHarness();
    const target = join(h.repo.path, 'a.txt');
    const { outcome, text } = await h.run({ readOnly: true }, { FAKE_SCENARIO: 'edit', FAKE_TARGET: target });
    expect(outcome.status).toBe('succeeded');
    expect(text).toMatch(/^edit=reject execute=reject write=refused: .*read-only/);
    expect(await readFile(target, 'utf8')).toBe('original\n');
  });

  it('rejects an edit whose location is outside the workspace', async () => {
    await using h = await startAcpHarness();
    await using outside = await createTempDir();
    const target = join(outside.path, 'x.txt');
    const { text } = await h.run({}, { FAKE_SCENARIO: 'edit', FAKE_TARGET: target });
    expect(text).toMatch(/^edit=reject execute=reject write=refused: .*outside the workspace/);
  });

  it('confines fs reads and writes to the workspace and allowed roots (.., symlinks refused)', async () => {
    await using h = await startAcpHarness();
    await using outside = await createTempDir();
    await using extra = await createTempDir();
    await writeFile(join(outside.path, 'secret.txt'), 'secret\n');
    await symlink(outside.path, join(h.repo.path, 'link'));
    await symlink(join(outside.path, 'nowhere.txt'), join(h.repo.path, 'dangling.txt'));
    await mkdir(join(h.repo.path, 'sub'));
    const paths = [
      join(h.repo.path, 'sub', 'new.txt'),
      join(extra.path, 'ok.txt'),
      join(outside.path, 'secret.txt'),
      `${h.repo.path}/../${outside.path.split('/').pop()}/secret.txt`,
      join(h.repo.path, 'link', 'secret.txt'),
      join(h.repo.path, 'dangling.txt'),
      'relative.txt',
    ];
    const { text, outcome } = await h.run(
      { allowedRoots: [extra.path] },
      { FAKE_SCENARIO: 'fs', FAKE_TARGET: paths.join('|') },
    );
    expect(outcome.status).toBe('succeeded');
    const lines = text.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      `${paths[0]} write=ok`,
      `${paths[0]} read=ok`,
      `${paths[1]} write=ok`,
      `${paths[1]} read=ok`,
    ]);
    for (const line of lines.slice(4)) expect(line).toMatch(/=refused: .*outside the workspace/);
    expect(lines).toHaveLength(14);
    expect(await readFile(join(outside.path, 'secret.txt'), 'utf8')).toBe('secret\n');
  });

  it("refuses writes to the workspace's protected paths (git hooks, .runtime/) as Keel's own tools do", async () => {
    await using h = await startAcpHarness();
    const paths = [
      join(h.repo.path, '.git', 'hooks', 'pre-commit'),
      join(h.repo.path, '.runtime', 'config.json'),
    ];
    const { text, outcome } = await h.run({}, { FAKE_SCENARIO: 'fs', FAKE_TARGET: paths.join('|') });
    expect(outcome.status).toBe('succeeded');
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^\S+pre-commit write=refused: .*protected path/);
    expect(lines[2]).toMatch(/^\S+config\.json write=refused: .*protected path/);
    expect(existsSync(paths[0] as string)).toBe(false);
    expect(existsSync(paths[1] as string)).toBe(false);
  });

  it('prepends the instructions in tagged sections and sends images as image blocks', async () => {
    await using h = await startAcpHarness();
    const { text } = await h.run(
      { instructions: 'Be brief.', images: [{ data: 'aGk=', media_type: 'image/png' }] },
      { FAKE_SCENARIO: 'echo' },
    );
    expect(text).toBe(
      'PROMPT[<instructions>\nBe brief.\n</instructions>\n\n<request>\nDo the task\n</request>] IMAGES[1]',
    );
  });

  it('loads an earlier session when the agent can, without replaying its history as events', async () => {
    await using h = await startAcpHarness();
    const target = join(h.repo.path, 'a.txt');
    const { events, outcome } = await h.run(
      { resumeSessionId: 'earlier-7' },
      { FAKE_SCENARIO: 'load', FAKE_TARGET: target },
    );
    expect(outcome).toMatchObject({ status: 'succeeded', runnerSessionId: 'earlier-7' });
    expect(JSON.stringify(events)).not.toContain('OLD HISTORY');
  });

  it('briefs a new session when the agent cannot load the earlier one', async () => {
    await using h = await startAcpHarness();
    const { outcome, text } = await h.run({ resumeSessionId: 'earlier-7' }, { FAKE_SCENARIO: 'echo' });
    expect(outcome.runnerSessionId).toBe('fake-session-1');
    expect(text).toContain('<earlier_session>');
    expect(text).toContain('session earlier-7');
  });

  it('cancels with session/cancel on abort', async () => {
    await using h = await startAcpHarness();
    const controller = new AbortController();
    const { outcome } = await h.run({ signal: controller.signal }, { FAKE_SCENARIO: 'cancel' }, (event) => {
      if (event.type === 'text_delta') controller.abort();
    });
    expect(outcome).toMatchObject({ status: 'cancelled', runnerSessionId: 'fake-session-1' });
  });

  it('a crash mid-prompt fails with the last stderr lines', async () => {
    await using h = await startAcpHarness();
    const { outcome, events } = await h.run({}, { FAKE_SCENARIO: 'crash' });
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.code).toBe('RUNNER_EXITED');
    expect(outcome.error?.message).toContain('exited with code 3');
    expect(outcome.error?.message).toContain('fatal: the fake agent blew up');
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'RUNNER_EXITED' } });
  });

  it('a hang past the timeout fails and the agent is killed', async () => {
    await using h = await startAcpHarness({ timeoutMs: 1_500 });
    const started = Date.now();
    const { outcome } = await h.run({}, { FAKE_SCENARIO: 'hang' });
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.code).toBe('RUNNER_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('the timeout can come from KEEL_ACP_TIMEOUT_MS in the runner config env', async () => {
    await using h = await startAcpHarness();
    const { outcome } = await h.run({}, { FAKE_SCENARIO: 'hang', KEEL_ACP_TIMEOUT_MS: '1000' });
    expect(outcome.error?.code).toBe('RUNNER_TIMEOUT');
  });

  it('maps refusal and max_tokens to failures with a clear error', async () => {
    await using h = await startAcpHarness();
    const refused = await h.run({}, { FAKE_SCENARIO: 'refusal' });
    expect(refused.outcome).toMatchObject({ status: 'failed', error: { code: 'AGENT_REFUSED' } });
    const long = await h.run({}, { FAKE_SCENARIO: 'max_tokens' });
    expect(long.outcome).toMatchObject({ status: 'failed', error: { code: 'MAX_TOKENS' } });
    expect(long.events.at(-1)).toMatchObject({ type: 'error', error: { code: 'MAX_TOKENS' } });
  });

  it('a missing binary fails (no throw), and check says why', async () => {
    await using h = await startAcpHarness();
    const missing = join(h.bin.path, 'no-such-agent');
    const outcome = await h.runner.run(
      { ...h.request(), config: { ...h.request().config, binary_path: missing } },
      async () => undefined,
    );
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'RUNNER_NOT_AVAILABLE' } });
    const check = await h.runner.check({ ...h.request().config, binary_path: missing });
    expect(check).toMatchObject({ kind: 'acp', usable: false });
    expect(check.reason).toContain('no-such-agent');
    const builtin = await h.runner.check({
      id: 'acp',
      name: 'ACP',
      kind: 'acp',
      extra_args: [],
      env: { PATH: h.bin.path },
    });
    expect(builtin).toMatchObject({ usable: false });
    expect(builtin.reason).toContain("'opencode' was not found");
  });

  // A runner hands back what its agent said, key and all; the session runner scrubs the key once for
  // every runner before anything keeps or sends it (test/sessions/secret-scrub.test.ts).
  it('hands back what the agent said, for the session runner to scrub', async () => {
    await using h = await startAcpHarness();
    const { events } = await h.run({ prompt: `use ${secretKey}` }, { FAKE_SCENARIO: 'echo' });
    expect(JSON.stringify(events)).toContain(secretKey);
  });
});

describe('AcpRunner with agents that are not well', () => {
  it('an agent that exits at start fails with its stderr, and nothing of it is left running', async () => {
    await using h = await startAcpHarness();
    const marker = `keel-acp-test-${randomUUID()}`;
    const config = {
      ...h.request().config,
      binary_path: '/bin/sh',
      extra_args: ['-c', `echo ${marker} broke >&2; exit 7`],
    };
    const outcome = await h.runner.run({ ...h.request(), config }, async () => undefined);
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'RUNNER_EXITED' } });
    expect(outcome.error?.message).toContain('exited with code 7');
    expect(outcome.error?.message).toContain(`${marker} broke`);
  });

  it('an agent that prints garbage and never answers times out, and its process group is killed', async () => {
    await using h = await startAcpHarness({ timeoutMs: 1_500 });
    const marker = `keel-acp-test-${randomUUID()}`;
    let processesSeen = 0;
    // The child `sleep` is in the agent's process group: the kill must reach it too.
    const script = `echo not-json; ${process.execPath} -e 'setTimeout(() => {}, 60000)' ${marker} & wait`;
    const config = { ...h.request().config, binary_path: '/bin/sh', extra_args: ['-c', script] };
    const watching = setInterval(() => {
      processesSeen = Math.max(processesSeen, processesWith(marker).length);
    }, 100);
    const outcome = await h.runner.run({ ...h.request(), config }, async () => undefined);
    clearInterval(watching);
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'RUNNER_TIMEOUT' } });
    await expectNoProcessWith(marker);
    expect(processesSeen).toBeGreaterThan(0);
  });
});

function processesWith(marker: string): number[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return listing
    .split('\n')
    .filter((line) => line.includes(marker) && !line.includes('ps -eo'))
    .map((line) => Number.parseInt(line.trim(), 10));
}

/** Polls until no process holds `marker` (a killed process takes a moment to be reaped). */
async function expectNoProcessWith(marker: string, timeoutMs = 5_000): Promise<void> {
  let pids: number[] = [];
  await eventually(
    () => {
      pids = processesWith(marker);
      return pids.length === 0;
    },
    { timeoutMs, intervalMs: 50, what: () => `no process with ${marker}; still running: ${pids.join(', ')}` },
  );
}
