// The spec's cross-surface rules (section 1), checked with the real `keel` command and the real server
// on one store: what one surface starts or asks for, another sees and handles.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

const keelBin = join(import.meta.dirname, '..', '..', 'cli', 'bin', 'keel.js');

async function keel(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [keelBin, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('cross-surface rules', () => {
  test('a run started from the command line is queried from the web, with the same events in the same order', async () => {
    await using s = await startServer(
      [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
        { when: { lastRole: 'tool' }, text: 'It says hi.' },
      ],
      { files: { 'a.txt': 'hi\n' } },
    );
    const run = await keel(['run', 'what does a.txt say?', '-w', s.repo.path], s.env);
    expect(run).toMatchObject({ code: 0, stdout: 'It says hi.\n' });
    const { runs } = JSON.parse((await keel(['runs', 'list', '--json', '-w', s.repo.path], s.env)).stdout);
    const runId: string = runs[0].id;

    const detail = await s.api('GET', `/runtime/runs/${runId}`);
    expect(detail.body).toMatchObject({ id: runId, status: 'succeeded', result: { output: 'It says hi.' } });
    const watched = (await keel(['runs', 'watch', runId, '--json', '-w', s.repo.path], s.env)).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const streamed = (await (await fetch(`${s.base}/runtime/runs/${runId}/events`)).text())
      .split('\n\n')
      .map((block) => block.match(/^data: (.*)$/m)?.[1])
      .filter((data): data is string => data !== undefined)
      .map((data) => JSON.parse(data));
    expect(streamed.map((event) => event.type)).toEqual(watched.map((event) => event.type));
    // `keel runs watch --json` puts the cursor in each line; the SSE stream carries it as the message id.
    const { seq, ...lastWatched } = watched.at(-1);
    expect(seq).toBe(watched.length);
    expect(streamed.at(-1)).toEqual(lastWatched);
  }, 60_000);

  test('an approval requested from the web is handled from the command line', async () => {
    await using s = await startServer(
      [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'from the web\n' } }] },
        { when: { lastRole: 'tool' }, text: 'Wrote out.txt.' },
      ],
      { config: { security: { require_approval: ['write_file'] } } },
    );
    const { body: run } = await s.api('POST', '/runtime/runs', {
      prompt: 'write out.txt',
      workdir: s.repo.path,
    });
    await s.until(run.id, (each) => each.status === 'waiting');
    const listed = await keel(
      ['approvals', 'list', '--status', 'pending', '--json', '-w', s.repo.path],
      s.env,
    );
    const [approval] = JSON.parse(listed.stdout).approvals;
    expect(approval).toMatchObject({ run_id: run.id, detail: { tool_name: 'write_file' } });

    const approved = await keel(['approvals', 'approve', approval.id, '-w', s.repo.path], s.env);
    expect(approved).toMatchObject({ code: 0, stdout: 'Wrote out.txt.\n' });
    const finished = await s.until(run.id, (each) => each.status === 'succeeded');
    expect(finished.result.output).toBe('Wrote out.txt.');
    expect(await readFile(join(s.repo.path, 'out.txt'), 'utf8')).toBe('from the web\n');
  }, 60_000);
});
