import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { KeelError } from '../../src/errors/index.ts';
import {
  legacyMemoryPath,
  memoryCategories,
  memoryDir,
  memoryPromptLines,
  ProjectMemory,
} from '../../src/memory/index.ts';
import { saveMemoryTool } from '../../src/tools/save-memory.ts';
import { TodoList, todoReadTool, todoWriteTool } from '../../src/tools/todo.ts';
import { contextFor, tempDir } from './helpers.ts';

describe('save_memory and the project memory', () => {
  test('one file per category in a per-project directory under the runtime directory; the prompt shows them', async () => {
    await using dir = await tempDir();
    await using home = await tempDir('keel-home-');
    const memory = new ProjectMemory(home.path, dir.path);
    const ctx = { ...(await contextFor(dir.path)), memory };
    expect(
      await saveMemoryTool.execute(ctx, { category: 'patterns', content: 'Run tests with npm test.' }),
    ).toBe('Saved to project memory (patterns: 1 of 50).');
    await saveMemoryTool.execute(ctx, { category: 'conventions', content: 'Imports end in .ts.' });
    const entries = await new ProjectMemory(home.path, dir.path).entries();
    expect(entries.map((entry) => [entry.category, entry.content])).toEqual([
      ['conventions', 'Imports end in .ts.'],
      ['patterns', 'Run tests with npm test.'],
    ]);
    // Not in the workdir: under the runtime directory, a directory per project, a file per category.
    expect(memory.dir.startsWith(join(home.path, 'memory'))).toBe(true);
    expect(memoryDir(home.path, dir.path)).toBe(memory.dir);
    expect(existsSync(join(dir.path, '.runtime'))).toBe(false);
    const file = JSON.parse(await readFile(join(memory.dir, 'patterns.json'), 'utf8'));
    expect(file).toEqual({
      project: dir.path,
      entries: [{ content: 'Run tests with npm test.', created_at: expect.any(String) }],
    });
    expect(memoryPromptLines(entries)).toEqual([
      '',
      '# Project Memory',
      'Saved in earlier tasks in this project (save_memory adds to it):',
      '## conventions',
      '- Imports end in .ts.',
      '## patterns',
      '- Run tests with npm test.',
    ]);
    expect(memoryPromptLines([])).toEqual([]);
  });

  test('a category keeps its latest 50; concurrent saves lose nothing; a broken file is a clear error', async () => {
    await using dir = await tempDir();
    await using home = await tempDir('keel-home-');
    const memory = new ProjectMemory(home.path, dir.path);
    await Promise.all(Array.from({ length: 55 }, (_, i) => memory.save('issues', `issue ${i}`)));
    await memory.save('decisions', 'kept');
    const entries = await memory.entries();
    const issues = entries.filter((entry) => entry.category === 'issues').map((entry) => entry.content);
    expect(issues).toHaveLength(50);
    expect(issues[0]).toBe('issue 5');
    expect(issues.at(-1)).toBe('issue 54');
    expect(entries.some((entry) => entry.content === 'kept')).toBe(true);
    // The prompt stays bounded however much is saved.
    expect(memoryPromptLines(entries, 200).join('\n').length).toBeLessThan(400);

    await writeFile(memory.pathOf('issues'), '{ broken');
    const error = await memory.entries().catch((caught: unknown) => caught);
    expect(KeelError.is(error) && error.code).toBe('CONFIG_ERROR');
  });

  test('only the four categories: any other is refused, by the tool schema and by the store', async () => {
    await using dir = await tempDir();
    await using home = await tempDir('keel-home-');
    for (const category of memoryCategories) {
      expect(saveMemoryTool.schema.safeParse({ category, content: 'x' }).success).toBe(true);
    }
    expect(saveMemoryTool.schema.safeParse({ category: 'commands', content: 'x' }).success).toBe(false);
    expect(saveMemoryTool.schema.safeParse({ category: 'patterns', content: '' }).success).toBe(false);
    const refused = await new ProjectMemory(home.path, dir.path)
      .save('notes', 'x')
      .catch((caught: unknown) => caught);
    expect(KeelError.is(refused) && refused.code).toBe('INVALID_PARAMS');
    expect((refused as Error).message).toBe(
      "Unknown memory category 'notes': use one of conventions, patterns, issues, decisions.",
    );
  });

  test('an old .runtime/memory.json is moved into the category files once, nothing lost', async () => {
    await using dir = await tempDir();
    await using home = await tempDir('keel-home-');
    const legacy = legacyMemoryPath(dir.path);
    await mkdir(join(dir.path, '.runtime'), { recursive: true });
    await writeFile(
      legacy,
      JSON.stringify({
        entries: [
          { category: 'conventions', content: 'Tabs, not spaces.', created_at: '2026-01-01T00:00:00.000Z' },
          { category: 'commands', content: 'npm run lint', created_at: '2026-01-02T00:00:00.000Z' },
        ],
      }),
    );
    const memory = new ProjectMemory(home.path, dir.path);
    expect((await memory.entries()).map((entry) => [entry.category, entry.content])).toEqual([
      ['conventions', 'Tabs, not spaces.'],
      ['patterns', '(commands) npm run lint'],
    ]);
    expect(existsSync(legacy)).toBe(false);
    expect(existsSync(`${legacy}.migrated`)).toBe(true);
    // A second read does not migrate again.
    expect(await memory.entries()).toHaveLength(2);
  });

  test('without a runtime directory in the context, save_memory says so', async () => {
    await using dir = await tempDir();
    const error = await saveMemoryTool
      .execute(await contextFor(dir.path), { category: 'patterns', content: 'x' })
      .catch((caught: unknown) => caught);
    expect(KeelError.is(error) && error.code).toBe('TOOL_ERROR');
  });
});

describe('todo_write and todo_read', () => {
  test('the list is replaced as a whole and rendered as a checklist', async () => {
    await using dir = await tempDir();
    const todos = new TodoList();
    const ctx = { ...(await contextFor(dir.path)), todos };
    const written = await todoWriteTool.execute(ctx, {
      todos: [
        { content: 'Read the failing test', status: 'completed' },
        { content: 'Fix the parser', status: 'in_progress' },
        { content: 'Run the suite', status: 'pending' },
      ],
    });
    expect(written).toBe(
      'Tasks (1/3 done):\n[x] Read the failing test\n[~] Fix the parser\n[ ] Run the suite',
    );
    expect(await todoReadTool.execute(ctx, {})).toBe(written);
    await todoWriteTool.execute(ctx, { todos: [] });
    expect(await todoReadTool.execute(ctx, {})).toBe('The task list is empty.');
  });

  test('two tasks in progress at once are refused', () => {
    const parsed = todoWriteTool.schema.safeParse({
      todos: [
        { content: 'a', status: 'in_progress' },
        { content: 'b', status: 'in_progress' },
      ],
    });
    expect(parsed.success).toBe(false);
  });
});

describe('memory and todos in a run', () => {
  test('a fact saved by one run is in the instructions of the next; the task list lives with the run', async () => {
    const { startHarness } = await import('../harness.ts');
    await using h = await startHarness([
      {
        toolCalls: [
          { name: 'save_memory', arguments: { category: 'patterns', content: 'Tests run with make check.' } },
        ],
      },
      {
        when: { lastRole: 'tool' },
        toolCalls: [
          {
            name: 'todo_write',
            arguments: { todos: [{ content: 'Run make check', status: 'in_progress' }] },
          },
        ],
      },
      { when: { lastRole: 'tool' }, toolCalls: [{ name: 'todo_read', arguments: {} }] },
      { when: { lastRole: 'tool' }, text: 'Remembered.' },
      { text: 'I know how to run the tests.' },
    ]);
    await h.runtime.run({ prompt: 'remember how to test', workdir: h.workdir });
    const todoRead = h.model.chatRequests[3]!.messages!.at(-1);
    expect(todoRead).toMatchObject({ role: 'tool', content: 'Tasks (0/1 done):\n[~] Run make check' });

    await h.runtime.run({ prompt: 'how do I test?', workdir: h.workdir });
    const system = h.model.chatRequests[4]!.messages![0]!;
    expect(system.role).toBe('system');
    expect(String(system.content)).toContain('# Project Memory\nSaved in earlier tasks in this project');
    expect(String(system.content)).toContain('## patterns\n- Tests run with make check.');
  });
});
