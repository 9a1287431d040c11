import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { RunEventEntry } from '../src/index.ts';
import { patience, startWorld } from './world.ts';

describe('@keel/web-client against a real keel-web', () => {
  test('a run is started, followed to its end, and read back page by page', async () => {
    await using world = await startWorld([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'hello\n' } }] },
      { text: 'Wrote out.txt.' },
    ]);
    const { client } = world;
    expect(await client.health()).toMatchObject({ status: 'ok' });

    const started = await client.runs.start({ prompt: 'write a file', workdir: world.repo.path });
    expect(started).toMatchObject({ run_id: started.id, prompt: 'write a file' });
    const heard: RunEventEntry[] = [];
    const ended = await client.runs.follow(started.id, {
      onEvent: (entry) => heard.push(entry),
      signal: patience(),
    });
    expect(ended).toMatchObject({ id: started.id, status: 'succeeded' });
    expect(heard.map((entry) => entry.seq)).toEqual(heard.map((_, index) => index + 1));
    expect(heard.at(-1)?.seq).toBe(ended.last_seq);
    expect(heard[0]?.event.type).toBe('session_start');
    const done = heard.at(-1)?.event;
    expect(done).toMatchObject({ type: 'done', output: 'Wrote out.txt.' });
    expect(heard.map((entry) => entry.event.type)).toContain('tool_result');
    expect(await readFile(join(world.repo.path, 'out.txt'), 'utf8')).toBe('hello\n');

    // The log again: whole, and after a cursor.
    expect(await client.runs.events(started.id)).toEqual(heard);
    expect(await client.runs.events(started.id, { after: 2 })).toEqual(heard.slice(2));
    expect(await client.runs.events(started.id, { after: ended.last_seq })).toEqual([]);
    // Following an ended run replays it and answers at once.
    const replayed: number[] = [];
    await client.runs.follow(started.id, { after: 1, onEvent: (entry) => replayed.push(entry.seq) });
    expect(replayed).toEqual(heard.slice(1).map((entry) => entry.seq));

    const page = await client.runs.list({ limit: 5 });
    expect(page.runs.map((run) => run.id)).toContain(started.id);
    expect((await client.runs.timeline(started.id)).run.id).toBe(started.id);
    expect((await client.runs.metrics(started.id)).tools).toMatchObject({ write_file: 1 });
    const checkpoints = await client.runs.checkpoints(started.id);
    expect(checkpoints.length).toBeGreaterThan(0);
    const fork = await client.runs.fork(checkpoints[0]!.id);
    expect(fork.forked_from).toMatchObject({ run_id: started.id });
    await client.runs.follow(fork.id, { signal: patience() });
  });

  test('an approval is decided through the client while the run is followed', async () => {
    await using world = await startWorld(
      [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'x.txt', content: 'x' } }] },
        { when: { lastRole: 'tool' }, text: 'Written.' },
      ],
      { config: { security: { require_approval: ['write_file'] } } },
    );
    const { client } = world;
    const started = await client.runs.start({ prompt: 'write x', workdir: world.repo.path });
    const decisions: Promise<unknown>[] = [];
    const types: string[] = [];
    const ended = await client.runs.follow(started.id, {
      signal: patience(),
      onEvent: ({ event }) => {
        types.push(event.type);
        if (event.type === 'interaction_request') {
          decisions.push(client.approvals.decide(event.request_id, 'approve', 'looks fine'));
        }
      },
    });
    expect(ended.status).toBe('succeeded');
    expect(types).toEqual(expect.arrayContaining(['interaction_request', 'tool_result', 'done']));
    const [decided] = (await Promise.all(decisions)) as [{ approval: { status: string; answer: string } }];
    expect(decided.approval).toMatchObject({ status: 'approved', answer: 'looks fine' });
    expect(await client.approvals.list({ run_id: started.id })).toEqual([
      expect.objectContaining({ status: 'approved', kind: 'tool' }),
    ]);
    expect(await readFile(join(world.repo.path, 'x.txt'), 'utf8')).toBe('x');
  });

  test('sessions, projects, tasks, configuration, skills and the synchronous run', async () => {
    await using world = await startWorld([{ text: 'Hi there.' }]);
    const { client } = world;

    const result = await client.runs.run({ prompt: 'say hi', workdir: world.repo.path });
    expect(result).toMatchObject({ status: 'success', output: 'Hi there.' });
    const detail = await client.sessions.get(result.session_id);
    expect(detail.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    const created = await client.sessions.create({ title: 'Scratch' });
    expect(created).toMatchObject({ title: 'Scratch', message_count: 0 });
    expect((await client.sessions.list()).map((session) => session.id)).toContain(created.id);
    expect(await client.sessions.remove(created.id)).toEqual({ status: 'deleted', id: created.id });

    const project = await client.projects.create({ name: 'App', workdir: world.repo.path });
    expect((await client.projects.list()).projects.map((each) => each.id)).toEqual([project.id]);
    expect(await client.projects.update(project.id, { description: 'the app' })).toMatchObject({
      description: 'the app',
    });
    const task = await client.projects.createTask(project.id, { name: 'Login', branch_name: 'feat/login' });
    expect((await client.projects.tasks(project.id)).tasks).toEqual([task]);
    expect(await client.tasks.update(task.id, { name: 'Login page' })).toMatchObject({ name: 'Login page' });
    expect(await client.tasks.remove(task.id)).toEqual({ status: 'deleted', id: task.id });
    expect(await client.projects.remove(project.id)).toEqual({ status: 'deleted', id: project.id });

    expect(await client.config.update({ cb_max_steps: 7 })).toMatchObject({
      circuit_breaker: { max_steps: 7 },
    });
    expect(await client.config.get()).toMatchObject({ circuit_breaker: { max_steps: 7 } });
    expect((await client.config.status()).ready).toBe(true);

    const skills = await client.skills.list();
    const first = skills.skills[0];
    expect(first).toBeDefined();
    expect(await client.skills.disable(first!.name)).toMatchObject({ name: first!.name, enabled: false });
    expect(await client.skills.enable(first!.name)).toMatchObject({ enabled: true });
    expect((await client.skills.get(first!.name)).documentation.length).toBeGreaterThan(0);

    expect(await client.callTool({ tool: 'list_directory', params: { path: '.' } })).toMatchObject({
      status: 'success',
    });
    expect((await client.metrics()).total_runs).toBeGreaterThan(0);
    // What the browser console starts from: the server's workdir and its tools by kind.
    const info = await client.info();
    expect(info.workdir).toBe(world.repo.path);
    expect(info.tools).toEqual(
      expect.arrayContaining([
        { name: 'read_file', kind: 'read' },
        { name: 'exec_command', kind: 'execute' },
      ]),
    );
    expect((await client.audit({ limit: 5 })).entries.length).toBeGreaterThan(0);
  });
});
