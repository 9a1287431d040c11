import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTempGitRepo, type ScriptedReply, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { keel } from './keel-process.ts';

async function setup(script: ScriptedReply[], files: Record<string, string> = {}) {
  const model = await startMockModel({ script });
  const repo = await createTempGitRepo({ files });
  const home = await mkdtemp(join(tmpdir(), 'keel-cli-home-'));
  return {
    model,
    repo,
    env: { RUNTIME_HOME: home, RUNTIME_MODEL: 'mock-model', RUNTIME_MODEL_BASE_URL: model.url },
    async [Symbol.asyncDispose]() {
      await model.close();
      await repo.remove();
      await rm(home, { recursive: true, force: true });
    },
  };
}

describe('keel run', () => {
  test("--model-base-url is the user's own endpoint: RUNTIME_MODEL_API_KEY goes there", async () => {
    await using s = await setup([{ text: 'hi' }]);
    await using other = await startMockModel({ script: [{ text: 'from the other endpoint' }] });
    const out = await keel(['run', 'Say hi', '--workdir', s.repo.path, '--model-base-url', other.url], {
      ...s.env,
      RUNTIME_MODEL_API_KEY: 'sk-user-key',
    });
    expect(out.code).toBe(0);
    expect(out.stdout).toBe('from the other endpoint\n');
    expect(other.requests.map((request) => request.headers.authorization)).toEqual(['Bearer sk-user-key']);
    expect(s.model.requests).toHaveLength(0);
  });

  test('runs a multi-step edit: streams the answer, shows tool calls and results, prints usage', async () => {
    const longText = 'x'.repeat(300);
    await using s = await setup(
      [
        {
          toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }],
          usage: { prompt_tokens: 50, completion_tokens: 5 },
        },
        {
          toolCalls: [{ name: 'read_file', arguments: { path: 'app.py' } }],
          usage: { prompt_tokens: 60, completion_tokens: 6 },
        },
        {
          toolCalls: [
            {
              name: 'edit_file',
              arguments: {
                path: 'app.py',
                old_text: 'print("hi")',
                new_text: `print("hello")  # ${longText}`,
              },
            },
          ],
          usage: { prompt_tokens: 70, completion_tokens: 7 },
        },
        { text: 'Updated app.py to print hello.', usage: { prompt_tokens: 80, completion_tokens: 8 } },
      ],
      { 'app.py': 'print("hi")\n' },
    );
    const out = await keel(['run', 'Make app.py print hello', '--workdir', s.repo.path], s.env);
    expect(out.stderr).not.toContain('Error');
    expect(out.code).toBe(0);
    expect(out.stdout).toBe('Updated app.py to print hello.\n');
    expect(out.stderr).toContain('● list_directory({"path":"."})');
    expect(out.stderr).toContain('● read_file({"path":"app.py"})');
    expect(out.stderr).toContain('⎿');
    // The edit's arguments are longer than 120 characters: the shown part is cut at 120.
    const editLine = out.stderr.split('\n').find((line) => line.startsWith('● edit_file('))!;
    expect(editLine).toBe(
      `● edit_file(${JSON.stringify({ path: 'app.py', old_text: 'print("hi")', new_text: `print("hello")  # ${longText}` }).slice(0, 117)}...)`,
    );
    expect(out.stderr).toMatch(/Tokens: 260 in, 26 out, 286 total · session ses_\w+/);
    expect(await readFile(join(s.repo.path, 'app.py'), 'utf8')).toContain('print("hello")');
  });

  test('--json prints every event as a JSON line, session_start first and done last', async () => {
    await using s = await setup([{ reasoning: 'thinking hard', text: 'Hi there.' }]);
    const out = await keel(['run', 'hello', '--json', '-w', s.repo.path], s.env);
    expect(out.code).toBe(0);
    const events = out.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(events[0]?.type).toBe('session_start');
    expect(events.at(-1)).toMatchObject({ type: 'done', output: 'Hi there.', thinking: 'thinking hard' });
  });

  test('--image sends the picture to the model', async () => {
    await using s = await setup([{ text: 'A picture.' }]);
    const image = join(s.repo.path, 'shot.png');
    await writeFile(image, Buffer.from('89504e470d0a1a0a', 'hex'));
    const out = await keel(['run', 'describe', '--image', image, '-w', s.repo.path], s.env);
    expect(out.code).toBe(0);
    const parts = s.model.chatRequests[0]!.messages!.at(-1)!.content as { type: string }[];
    expect(parts.map((part) => part.type)).toEqual(['text', 'image_url']);
  });

  test('-s continues a session; an unknown session fails with SESSION_NOT_FOUND and exit 1', async () => {
    await using s = await setup([{ text: 'First.' }, { text: 'Second.' }]);
    const first = await keel(['run', 'one', '-w', s.repo.path], s.env);
    const sessionId = first.stderr.match(/session (ses_\w+)/)?.[1];
    expect(sessionId).toBeDefined();
    const second = await keel(['run', 'two', '-s', sessionId!, '-w', s.repo.path], s.env);
    expect(second.stdout).toBe('Second.\n');
    expect(s.model.chatRequests[1]!.messages!.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
    ]);

    const bad = await keel(['run', 'three', '-s', 'ses_nope', '-w', s.repo.path], s.env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Error [SESSION_NOT_FOUND]: Session 'ses_nope' does not exist.");
  });

  test('a model failure exits non-zero with the error, after the retries are shown', async () => {
    await using s = await setup([
      { error: { status: 503 } },
      { error: { status: 503 } },
      { error: { status: 503 } },
      { error: { status: 503 } },
    ]);
    const out = await keel(['run', 'hi', '-w', s.repo.path], { ...s.env, RUNTIME_HOME: s.env.RUNTIME_HOME });
    expect(out.code).toBe(1);
    expect(out.stderr.match(/↻ retry/g)).toHaveLength(3);
    // Counted in retries: the first attempt is not one.
    expect(out.stderr.match(/↻ retry \d\/\d/g)).toEqual(['↻ retry 1/3', '↻ retry 2/3', '↻ retry 3/3']);
    expect(out.stderr).toContain('Error [MODEL_ERROR]');
  }, 30_000);

  test('no model configured: a clear error naming the setting', async () => {
    const home = await mkdtemp(join(tmpdir(), 'keel-cli-home-'));
    const out = await keel(['run', 'hi'], { RUNTIME_HOME: home }, home);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('Error [CONFIG_ERROR]: No model configured');
    expect(out.stderr).toContain('RUNTIME_MODEL');
  });

  test('bad flags are refused with usage help', async () => {
    const out = await keel(['run', 'hi', '--max-steps', 'many']);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("option '--max-steps <steps>' argument 'many' is invalid");
  });
});

describe('keel', () => {
  test('--version prints the version', async () => {
    const out = await keel(['--version']);
    expect(out.code).toBe(0);
    expect(out.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  test('--help lists the run command', async () => {
    const out = await keel(['--help']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Usage: keel');
    expect(out.stdout).toContain('run [options] <prompt>');
  });

  test('run --help lists its options', async () => {
    const out = await keel(['run', '--help']);
    expect(out.stdout).toContain('--workdir <dir>');
    expect(out.stdout).toContain('--image <path>');
  });
});

describe('keel run --workflow', () => {
  test('runs a workflow file: its gate leaves a review artifact, listed and shown from other processes', async () => {
    await using s = await setup([{ text: 'All ok here.' }]);
    const workflow = {
      name: 'draft-and-check',
      root: {
        id: 'main',
        kind: 'sequence',
        steps: [
          { id: 'draft', kind: 'agent', prompt: 'Draft: {{input.prompt}}' },
          { id: 'check', kind: 'gate', check: { output_of: 'draft', contains: 'ok' } },
        ],
      },
    };
    const file = join(s.repo.path, 'workflow.json');
    await writeFile(file, JSON.stringify(workflow));
    const out = await keel(['run', 'a greeting', '--workflow', 'workflow.json'], s.env, s.repo.path);
    expect(out.stderr).not.toContain('Error');
    expect(out.code).toBe(0);
    expect(out.stdout).toBe('All ok here.\n');
    expect(JSON.stringify(s.model.chatRequests[0]!.messages!.at(-1))).toContain('Draft: a greeting');

    const list = await keel(['runs', 'list', '--json'], s.env);
    const runId = (JSON.parse(list.stdout) as { runs: { id: string }[] }).runs[0]!.id;
    const artifacts = await keel(['artifacts', 'list', '--run-id', runId, '--json'], s.env);
    const [artifact] = (JSON.parse(artifacts.stdout) as { artifacts: { id: string; kind: string }[] })
      .artifacts;
    expect(artifact).toMatchObject({ kind: 'review' });
    const payload = await keel(['artifacts', 'show', artifact!.id], s.env);
    expect(payload.code).toBe(0);
    expect(JSON.parse(payload.stdout)).toMatchObject({ gate: 'check', passed: true });
    const text = await keel(['artifacts', 'list', '--run-id', runId], s.env);
    expect(text.stdout).toMatch(new RegExp(`^${artifact!.id}  review .*check-review-0\\.json$`, 'm'));
  });

  test('a missing or invalid workflow file is a clear error, before any run', async () => {
    await using s = await setup([]);
    const missing = await keel(
      ['run', 'hi', '--workflow', 'nope.json', '-w', s.repo.path],
      s.env,
      s.repo.path,
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('Error [INVALID_PARAMS]: Cannot read workflow file nope.json: ENOENT\n');
    await writeFile(join(s.repo.path, 'bad.json'), JSON.stringify({ root: { id: 'a', kind: 'agent' } }));
    const invalid = await keel(['run', 'hi', '--workflow', 'bad.json'], s.env, s.repo.path);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/^Error \[INVALID_PARAMS\]: Invalid workflow: root\.prompt: /);
    const runs = await keel(['runs', 'list'], s.env);
    expect(runs.stdout).toBe('No runs yet.\n');
  });
});
