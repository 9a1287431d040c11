import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCodingTools, defineTool, ToolRegistry } from '../../src/tools/index.ts';
import { contextFor, tempDir, writeFiles } from './helpers.ts';

const echo = defineTool({
  name: 'echo',
  description: 'Echoes its text.',
  schema: z.object({ text: z.string().describe('What to echo.'), times: z.number().int().default(1) }),
  async execute(_ctx, args) {
    return args.text.repeat(args.times);
  },
});

const broken = defineTool({
  name: 'broken',
  description: 'Always fails.',
  schema: z.object({}),
  async execute() {
    throw new Error('disk on fire');
  },
});

describe('ToolRegistry', () => {
  it('holds the coding tools with the spec names, in the spec order (a tool of our own may join them)', () => {
    const spec = [
      'read_file',
      'write_file',
      'edit_file',
      'list_directory',
      'grep',
      'glob',
      'search_files',
      'patch',
      'exec_command',
      'webfetch',
      'websearch',
      'lsp_diagnostics',
      'lsp_definition',
      'lsp_references',
      'lsp_hover',
      'undo_file',
      'redo_file',
      'list_file_changes',
      'todo_write',
      'todo_read',
      'save_memory',
      'question',
    ];
    expect(
      createCodingTools()
        .names()
        .filter((name) => spec.includes(name)),
    ).toEqual(spec);
  });

  it('generates OpenAI tool definitions from the zod schemas', () => {
    const tools = createCodingTools().toModelTools();
    const grep = tools.find((tool) => tool.function.name === 'grep');
    expect(grep?.type).toBe('function');
    expect(grep?.function.description).toContain('regular expression');
    const parameters = grep?.function.parameters as {
      type: string;
      properties: Record<string, { type: string; description: string; default?: unknown }>;
      required: string[];
      $schema?: string;
    };
    expect(parameters.$schema).toBeUndefined();
    expect(parameters.type).toBe('object');
    expect(Object.keys(parameters.properties)).toEqual(['pattern', 'path', 'include']);
    // Fields with a default are optional for the model.
    expect(parameters.required).toEqual(['pattern']);
    expect(parameters.properties.path).toMatchObject({ type: 'string', default: '.' });
    const readFile = tools.find((tool) => tool.function.name === 'read_file')?.function.parameters;
    expect(readFile).toMatchObject({ properties: { offset: { type: 'integer', minimum: 1 } } });
    expect(JSON.stringify(readFile)).not.toContain('9007199254740991');
    for (const tool of tools) {
      const properties = Object.values((tool.function.parameters as { properties: object }).properties);
      for (const property of properties) expect(property.description).toEqual(expect.any(String));
    }
  });

  it('validates arguments and lists the bad fields readably', async () => {
    await using work = await tempDir();
    const ctx = await contextFor(work.path);
    const registry = createCodingTools();
    const error = await registry.execute('read_file', { path: 3, limit: 0 }, ctx).catch((e) => e);
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.message).toBe(
      "Invalid arguments for tool 'read_file': path: Invalid input: expected string, received number; " +
        'limit: Too small: expected number to be >=1.',
    );
    expect(error.details.issues).toHaveLength(2);
    await expect(registry.execute('read_file', {}, ctx)).rejects.toMatchObject({
      message: expect.stringContaining('path: Invalid input: expected string, received undefined'),
    });
  });

  it('accepts arguments as JSON text and refuses malformed JSON', async () => {
    await using work = await tempDir();
    await writeFiles(work.path, { 'a.txt': 'hi' });
    const ctx = await contextFor(work.path);
    const registry = createCodingTools();
    expect(await registry.execute('read_file', '{"path":"a.txt"}', ctx)).toBe('     1\thi');
    await expect(registry.execute('read_file', '{path:', ctx)).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      message: "The arguments for tool 'read_file' are not valid JSON. Send a JSON object.",
    });
  });

  it('throws TOOL_NOT_FOUND listing what exists, and wraps unexpected failures as TOOL_ERROR', async () => {
    await using work = await tempDir();
    const ctx = await contextFor(work.path);
    const registry = new ToolRegistry([echo, broken]);
    expect(registry.has('echo')).toBe(true);
    expect(await registry.execute('echo', { text: 'ab', times: 2 }, ctx)).toBe('abab');
    await expect(registry.execute('nope', {}, ctx)).rejects.toMatchObject({
      code: 'TOOL_NOT_FOUND',
      details: { tool: 'nope', available: ['echo', 'broken'] },
    });
    await expect(registry.execute('broken', {}, ctx)).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: "Tool 'broken' failed: disk on fire",
    });
  });

  it('refuses a duplicate name', () => {
    expect(() => new ToolRegistry([echo, echo])).toThrow("A tool named 'echo' is already registered.");
  });

  it('filters by include or exclude into a new registry', () => {
    const all = createCodingTools();
    expect(all.filter({ include: ['grep', 'read_file'] }).names()).toEqual(['read_file', 'grep']);
    expect(all.filter({ exclude: ['write_file', 'edit_file', 'not_a_tool'] }).names()).toEqual([
      'read_file',
      'list_directory',
      'grep',
      'glob',
      'search_files',
      'patch',
      'exec_command',
      'webfetch',
      'websearch',
      'lsp_diagnostics',
      'lsp_definition',
      'lsp_references',
      'lsp_hover',
      'undo_file',
      'redo_file',
      'list_file_changes',
      'todo_write',
      'todo_read',
      'save_memory',
      'question',
    ]);
    expect(all.filter({}).names()).toHaveLength(22);
    expect(all.names()).toHaveLength(22);
    expect(() => all.filter({ include: ['grep'], exclude: ['glob'] })).toThrow(
      'include_tools and exclude_tools are mutually exclusive.',
    );
    expect(() => all.filter({ include: ['grep', 'gerp', 'bash'] })).toThrow(
      /^Unknown tool names in include_tools: gerp, bash\. Available: read_file, /,
    );
  });
});
