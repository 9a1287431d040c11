/** The TUI's slash commands, as the spec names them (section 4, "Other surfaces"), in the order /help lists them. */
export const slashCommands = [
  { name: 'help', usage: '/help', summary: 'list commands and keys' },
  { name: 'new', usage: '/new', summary: 'start a new session (the next prompt creates it)' },
  { name: 'sessions', usage: '/sessions [id]', summary: 'list recent sessions, or switch to one' },
  { name: 'skills', usage: '/skills', summary: 'list skills: name, enabled, source, description' },
  { name: 'settings', usage: '/settings', summary: 'show the model, thinking, limits and workdir' },
  { name: 'image', usage: '/image <path>', summary: 'attach an image to the next prompt' },
  { name: 'clear', usage: '/clear', summary: 'clear the transcript view (the session is kept)' },
  { name: 'quit', usage: '/quit', summary: 'exit (also /exit)' },
] as const;

/**
 * Commands Keel adds to the spec's (docs/decisions records each): /help lists each one right after the
 * spec's command it belongs with (`after`).
 */
export const addedCommands = [
  {
    name: 'model',
    usage: '/model [id]',
    summary: "list the server's models, or use one for the next prompts",
    after: 'settings',
  },
] as const;

export type SlashCommandName =
  | (typeof slashCommands)[number]['name']
  | (typeof addedCommands)[number]['name'];

export interface SlashCommand {
  name: SlashCommandName;
  usage: string;
  summary: string;
}

/** Every command, in the order /help lists them: the spec's, each followed by Keel's additions to it. */
export const allCommands: readonly SlashCommand[] = slashCommands.flatMap((command) => [
  command,
  ...addedCommands.filter((added) => added.after === command.name),
]);

/** Other spellings people type out of habit from other tools. */
const aliases: Record<string, SlashCommandName> = { exit: 'quit', q: 'quit', '?': 'help' };

/** What a line typed at the input is. */
export type ParsedInput =
  | { kind: 'empty' }
  | { kind: 'prompt'; text: string }
  | { kind: 'command'; name: SlashCommandName; argument: string }
  | { kind: 'unknown-command'; name: string; suggestion: SlashCommandName | null };

/**
 * Reads a line from the input. A leading `/word` is a command; anything else, including a line that starts
 * with a path such as `/etc/hosts …`, is a prompt. `//text` sends `/text` as a prompt.
 */
export function parseInput(line: string): ParsedInput {
  const text = line.trim();
  if (!text) return { kind: 'empty' };
  if (text.startsWith('//')) return { kind: 'prompt', text: text.slice(1) };
  const match = /^\/([A-Za-z?][\w-]*)(?:\s+([\s\S]*))?$/.exec(text);
  if (!match) return { kind: 'prompt', text };
  const typed = match[1]!.toLowerCase();
  const argument = (match[2] ?? '').trim();
  const name = aliases[typed] ?? allCommands.find((command) => command.name === typed)?.name;
  if (name) return { kind: 'command', name, argument };
  return { kind: 'unknown-command', name: typed, suggestion: suggestionFor(typed) };
}

/** The one command that starts with what was typed (`/sess` → sessions), if exactly one does. */
function suggestionFor(typed: string): SlashCommandName | null {
  const matches = allCommands.filter((command) => command.name.startsWith(typed));
  return matches.length === 1 ? matches[0]!.name : null;
}
