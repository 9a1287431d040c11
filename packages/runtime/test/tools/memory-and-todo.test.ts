import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { KeelError } from '../../src/errors/index.ts';
import { memoryPath, memoryPromptLines, ProjectMemory } from '../../src/memory/index.ts';
import { saveMemoryTool } from '../../src/tools/save-memory.ts';
import { TodoList, todoReadTool, todoWriteTool } from '../../src/tools/todo.ts';
import { contextFor, tempDir } from './helpers.ts';

describe('save_memory and the project memory', () => {
  test('entries persist in the project, grouped by category, and the prompt shows them', async () => {
    await using dir = await tempDir();
    const ctx = await contextFor(dir.path);
    expect(
      await saveMemoryTool.execute(ctx, { category: 'commands', content: 'Run tests with npm test.' }),
    ).toBe('Saved to project memory (commands: 1 of 50).');
    await saveMemoryTool.execute(ctx, { category: 'conventions', content: 'Imports end in .ts.' });
    const entries = await new ProjectMemory(dir.path).entries();
    expect(entries.map((entry) => [entry.category, entry.content])).toEqual([
      ['commands', 'Run tests with npm test.'],
      ['conventions', 'Imports end in .ts.'],
    ]);
    expect(JSON.parse(await readFile(memoryPath(dir.path), 'utf8')).entries).toHaveLength(2);
    expect(memoryPromptLines(entries)).toEqual([
      '',
      '# Project memory',
      'Saved in earlier tasks in this project (save_memory adds to it):',
      '## commands',
      '- Run tests with npm test.',
      '## conventions',
      '- Imports end in .ts.',
    ]);
    expect(memoryPromptLines([])).toEqual([]);
  });

  test('a category keeps its latest 50; concurrent saves lose nothing; a broken file is a clear error', async () => {
    await using dir = await tempDir();
    const memory = new ProjectMemory(dir.path);
    await Promise.all(Array.from({ length: 55 }, (_, i) => memory.save('notes', `note ${i}`)));
    await memory.save('other', 'kept');
    const entries = await memory.entries();
    const notes = entries.filter((entry) => entry.category === 'notes').map((entry) => entry.content);
    expect(notes).toHaveLength(50);
    expect(notes[0]).toBe('note 5');
    expect(notes.at(-1)).toBe('note 54');
    expect(entries.some((entry) => entry.content === 'kept')).toBe(true);
    // The prompt stays bounded however much is saved.
    expect(memoryPromptLines(entries, 200).join('\n').length).toBeLessThan(400);

    await writeFile(memoryPath(dir.path), '{ broken');
    const error = await memory.entries().catch((caught: unknown) => caught);
    expect(KeelError.is(error) && error.code).toBe('CONFIG_ERROR');
  });

  test('bad categories and empty content are refused by the schema', () => {
    expect(saveMemoryTool.schema.safeParse({ category: 'Has Spaces', content: 'x' }).success).toBe(false);
    expect(saveMemoryTool.schema.safeParse({ category: 'ok', content: '' }).success).toBe(false);
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
          { name: 'save_memory', arguments: { category: 'commands', content: 'Tests run with make check.' } },
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
    expect(String(system.content)).toContain('# Project memory\nSaved in earlier tasks in this project');
    expect(String(system.content)).toContain('## commands\n- Tests run with make check.');
  });
});
