import type { z } from 'zod';
import { InvalidParamsError, KeelError, ToolError, ToolNotFoundError } from '../errors/index.ts';
import { toParametersSchema } from './model-schema.ts';
import { type Tool, type ToolAuditRecord, type ToolContext, type ToolTraits, unknownTraits } from './tool.ts';

/** One entry of the OpenAI chat-completions `tools` array. */
export interface ModelTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** Which tools a run may use: `include` keeps only those named, `exclude` drops those named. */
export interface ToolFilter {
  include?: string[];
  exclude?: string[];
}

/**
 * The tools a run may call, by name. Validates arguments against each tool's schema before running it.
 *
 * @example
 * const tools = createCodingTools().filter({ exclude: ['write_file'] });
 * const result = await tools.execute('read_file', { path: 'README.md' }, ctx);
 */
export class ToolRegistry {
  readonly #tools = new Map<string, Tool>();

  constructor(tools: Iterable<Tool> = []) {
    for (const tool of tools) this.register(tool);
  }

  /** Adds a tool; a second tool with the same name is refused. */
  register(tool: Tool): this {
    if (this.#tools.has(tool.name)) {
      throw new InvalidParamsError(`A tool named '${tool.name}' is already registered.`, { tool: tool.name });
    }
    this.#tools.set(tool.name, tool);
    return this;
  }

  /** The tool called `name`; throws ToolNotFoundError listing the available names. */
  get(name: string): Tool {
    const tool = this.#tools.get(name);
    if (tool === undefined) throw new ToolNotFoundError(name, this.names());
    return tool;
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** Tools in registration order. */
  list(): Tool[] {
    return [...this.#tools.values()];
  }

  names(): string[] {
    return [...this.#tools.keys()];
  }

  /**
   * A new registry with a subset of the tools. Unknown names in `include` are an error (a typo would
   * silently remove a tool); unknown names in `exclude` are ignored, since excluding is always safe.
   */
  filter(filter: ToolFilter): ToolRegistry {
    const { include, exclude } = filter;
    if (include !== undefined && exclude !== undefined) {
      throw new InvalidParamsError('include_tools and exclude_tools are mutually exclusive.', {
        include,
        exclude,
      });
    }
    if (include !== undefined) {
      const unknown = include.filter((name) => !this.#tools.has(name));
      if (unknown.length > 0) {
        throw new InvalidParamsError(
          `Unknown tool names in include_tools: ${unknown.join(', ')}. Available: ${this.names().join(', ')}.`,
          { unknown, available: this.names() },
        );
      }
      return new ToolRegistry(this.list().filter((tool) => include.includes(tool.name)));
    }
    return new ToolRegistry(this.list().filter((tool) => !exclude?.includes(tool.name)));
  }

  /** The `tools` array for OpenAI chat completions, with JSON schemas generated from the zod schemas. */
  toModelTools(): ModelTool[] {
    return this.list().map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        description: tool.description,
        parameters: toParametersSchema(tool.schema),
      },
    }));
  }

  /**
   * Runs a tool as the model asked: looks it up, validates `rawArgs` (an object, or its JSON text) and
   * executes it. Errors are KeelErrors; an unexpected failure inside a tool becomes a ToolError.
   */
  async execute(name: string, rawArgs: unknown, ctx: ToolContext): Promise<string> {
    const event = this.#tools.get(name)?.traits?.audit;
    const kind = event ? { event } : {};
    try {
      const result = await this.#run(name, rawArgs, ctx);
      await audit(ctx, { tool_name: name, ...kind, args: rawArgs, result, success: true });
      return result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await audit(ctx, { tool_name: name, ...kind, args: rawArgs, result: message, success: false });
      throw error;
    }
  }

  /** The traits of the tool called `name` (`unknownTraits` when it declares none or is not here). */
  traitsOf(name: string): ToolTraits {
    return this.#tools.get(name)?.traits ?? unknownTraits;
  }

  async #run(name: string, rawArgs: unknown, ctx: ToolContext): Promise<string> {
    const tool = this.get(name);
    const parsed = tool.schema.safeParse(decodeArgs(name, rawArgs));
    if (!parsed.success) throw invalidArgs(name, parsed.error);
    try {
      return await tool.execute(ctx, parsed.data);
    } catch (error) {
      if (KeelError.is(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new ToolError(`Tool '${name}' failed: ${reason}`, { tool: name }, { cause: error });
    }
  }
}

async function audit(ctx: ToolContext, record: ToolAuditRecord): Promise<void> {
  try {
    await ctx.audit?.(record);
  } catch {
    // The audit log is a record of what happened, not a gate: its failure must not undo the tool's work.
  }
}

// Models send arguments as JSON text; callers of the SDK pass objects. A missing value means no arguments.
function decodeArgs(name: string, rawArgs: unknown): unknown {
  if (rawArgs === undefined || rawArgs === null || rawArgs === '') return {};
  if (typeof rawArgs !== 'string') return rawArgs;
  try {
    return JSON.parse(rawArgs);
  } catch {
    throw new InvalidParamsError(`The arguments for tool '${name}' are not valid JSON. Send a JSON object.`, {
      tool: name,
    });
  }
}

function invalidArgs(name: string, error: z.ZodError): InvalidParamsError {
  const issues = error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.map(String).join('.') : '(arguments)',
    message: issue.message,
  }));
  const list = issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ');
  return new InvalidParamsError(`Invalid arguments for tool '${name}': ${list}.`, { tool: name, issues });
}
