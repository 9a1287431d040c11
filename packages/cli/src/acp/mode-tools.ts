import { createCodingTools, createMcpTools, McpClientPool, type Tool, type ToolTraits } from '@keel/runtime';

// A tool that declares no traits may do anything (the runtime's own rule).
const unknownTraits: ToolTraits = { kind: 'other', readOnly: false };

/**
 * What read-only mode leaves out, decided by each tool's declared traits (never by a list of names): every
 * tool that writes files or runs commands, and every other tool that is not read-only (save_memory, the
 * MCP meta tools, whose servers are programs that may do anything; a tool that declares no traits counts
 * as able to do anything). The agent meta tools stay: the runtime gives a sub-agent only the tools its
 * parent may use, so what a read-only session spawns is read-only too.
 */
export function allowedReadOnly(traits: ToolTraits): boolean {
  if (traits.writesFiles || traits.runsCommands) return false;
  return traits.readOnly || traits.kind === 'agent';
}

/**
 * Why read-only mode leaves the tool out, as a refusal can say it; undefined for a tool it keeps. `catalogue`
 * is every tool a session's runs may be given besides the read-only and agent ones.
 */
export function readOnlyRefusal(
  name: string,
  catalogue: readonly Tool[] = modeCatalogue(),
): string | undefined {
  const traits = catalogue.find((tool) => tool.name === name)?.traits ?? unknownTraits;
  if (allowedReadOnly(traits)) return undefined;
  const what = traits.writesFiles
    ? 'writes files'
    : traits.runsCommands
      ? 'runs commands'
      : 'is not read-only';
  return `${name} ${what}, and this session is in Read-only mode, which offers only tools that change nothing. Switch the session to Default mode to allow it.`;
}

/** The names read-only mode excludes from a run (its request's `exclude_tools`). */
export function readOnlyExclusions(catalogue: readonly Tool[] = modeCatalogue()): string[] {
  return catalogue.filter((tool) => !allowedReadOnly(tool.traits ?? unknownTraits)).map((tool) => tool.name);
}

let catalogue: Tool[] | undefined;

/**
 * Every tool a session's runs may be offered that can change something: the coding tools and the MCP meta
 * tools (built over one placeholder server only to read their names and traits; nothing connects). Skills'
 * tools are read-only, and the agent meta tools stay in every mode.
 */
function modeCatalogue(): Tool[] {
  catalogue ??= [
    ...createCodingTools().list(),
    ...createMcpTools(
      [{ name: 'catalogue', transport: 'stdio', problem: 'never used' }],
      new McpClientPool(),
    ),
  ];
  return catalogue;
}
