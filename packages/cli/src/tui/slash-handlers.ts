import { type Session, type SkillList, toErrorObject } from '@keel/runtime';
import { formatTime } from '../render/records.ts';
import { formatSkillTable, formatSkillWarning } from '../render/skills.ts';
import { truncate } from '../render/truncate.ts';
import { errorText } from './error-text.ts';
import { listedModel, modelFacts, modelListLines, type ServerModels } from './model-picker.ts';
import { type EffectiveSettings, settingsLines } from './settings.ts';
import { allCommands, type SlashCommandName } from './slash-commands.ts';
import type { Tone } from './transcript.ts';

/** What the slash commands act on; the controller provides it. */
export interface SlashContext {
  busy(): boolean;
  currentSessionId(): string | null;
  attachedImages(): string[];
  notice(tone: Tone, text: string): void;
  clearTranscript(): void;
  newSession(): void;
  openSession(id: string): Promise<void>;
  recentSessions(): Session[];
  /** The skills of the TUI's workdir, as `keel skills list` shows them. */
  skills(): Promise<SkillList>;
  attachImage(path: string): Promise<void>;
  settings(): EffectiveSettings;
  /** The models of the endpoint the next run would use (a KeelError when they cannot be listed). */
  serverModels(): Promise<ServerModels>;
  /** The next runs use this model. */
  chooseModel(id: string): void;
  quit(): void;
}

const keys = [
  ['Enter', 'send the prompt; during a run, send it to the agent (seen at its next turn)'],
  ['Esc, Ctrl-C', 'cancel the run in progress'],
  ['Ctrl-C, Ctrl-D', 'on an empty line, when idle: quit'],
  ['y / n', 'approve / reject a pending approval (or type a reason, then Enter, to reject)'],
  ['↑ / ↓', 'previous / next prompt'],
  ['PgUp / PgDn', 'scroll the transcript'],
  ['Ctrl-A/E/U/K/W', 'start / end of line, clear line, cut to end, delete word'],
] as const;

/** Commands that would change the conversation under a run in progress. */
const refusedWhileBusy = new Set<SlashCommandName>(['new']);

/** Runs one slash command. Failures become an error line in the transcript; the TUI goes on. */
export async function runSlashCommand(
  name: SlashCommandName,
  argument: string,
  context: SlashContext,
): Promise<void> {
  if (context.busy() && (refusedWhileBusy.has(name) || (name === 'sessions' && argument))) {
    context.notice(
      'warning',
      `/${name} is not available while a run is in progress: press Esc to cancel it first.`,
    );
    return;
  }
  switch (name) {
    case 'help':
      return context.notice('info', helpText());
    case 'new':
      context.newSession();
      return context.notice('info', 'New session: your next prompt starts it.');
    case 'sessions':
      return argument ? switchSession(argument, context) : listSessions(context);
    case 'skills':
      return listSkills(context);
    case 'settings':
      return context.notice('info', settingsLines(context.settings()).join('\n'));
    case 'model':
      return argument ? pickModel(argument, context) : listModels(context);
    case 'image':
      return argument ? context.attachImage(argument) : describeImages(context);
    case 'clear':
      return context.clearTranscript();
    case 'quit':
      return context.quit();
  }
}

export function helpText(): string {
  const width = Math.max(
    ...[...allCommands.map((command) => command.usage), ...keys.map(([key]) => key)].map(
      (text) => text.length,
    ),
  );
  return [
    'Commands',
    ...allCommands.map((command) => `  ${command.usage.padEnd(width)}  ${command.summary}`),
    'Keys',
    ...keys.map(([key, meaning]) => `  ${key.padEnd(width)}  ${meaning}`),
  ].join('\n');
}

function listSessions(context: SlashContext): void {
  const sessions = context.recentSessions();
  if (sessions.length === 0) {
    context.notice('info', 'No sessions yet: your first prompt starts one.');
    return;
  }
  const current = context.currentSessionId();
  const lines = sessions.map(
    (session, index) =>
      `${session.id === current ? '*' : ' '} ${String(index + 1).padStart(2)}  ${session.id}  ${formatTime(session.updated_at)}  ${String(session.message_count).padStart(3)} msgs  ${truncate(session.title, 50)}`,
  );
  context.notice(
    'info',
    ['Recent sessions (newest first; * is this one)', ...lines, 'Switch with /sessions <id or number>.'].join(
      '\n',
    ),
  );
}

async function listSkills(context: SlashContext): Promise<void> {
  const { skills, warnings } = await context.skills();
  if (skills.length === 0) {
    context.notice('info', 'No skills found: add one as .runtime/skills/<name>/SKILL.md in the project.');
  } else {
    context.notice(
      'info',
      [
        'Skills (the agent reads an enabled one with read_skill when a task matches it)',
        ...formatSkillTable(skills, 60).map((line) => `  ${line}`),
        'Change with keel skills enable|disable <name> [--project]; a change applies to the next prompt.',
      ].join('\n'),
    );
  }
  for (const warning of warnings) context.notice('warning', formatSkillWarning(warning));
}

async function switchSession(argument: string, context: SlashContext): Promise<void> {
  // A number picks from the list /sessions shows; anything else is an id.
  const byNumber = /^\d+$/.test(argument) ? context.recentSessions()[Number(argument) - 1] : undefined;
  await context.openSession(byNumber?.id ?? argument);
}

function describeImages(context: SlashContext): void {
  const attached = context.attachedImages();
  context.notice(
    'info',
    attached.length
      ? `Attached to the next prompt: ${attached.join(', ')}.`
      : 'Usage: /image <path> attaches a .png, .jpg, .gif or .webp image to your next prompt.',
  );
}

/** `/model`: the server's models; a list that cannot be had is its error, and a model can still be named. */
async function listModels(context: SlashContext): Promise<void> {
  const current = context.settings().model;
  let found: ServerModels;
  try {
    found = await context.serverModels();
  } catch (error) {
    context.notice('error', errorText(error));
    context.notice('muted', 'You can still choose a model by name: /model <id>.');
    return;
  }
  context.notice('info', modelListLines(found, current).join('\n'));
  if (current && found.models.length > 0 && !found.models.some((model) => model.id === current)) {
    context.notice('warning', `The model in use, ${current}, is not in this list.`);
  }
}

/**
 * `/model <id or number>`: the next prompts use it. A name the server does not list is still used (some
 * servers list only some of their models, or none) but warned of, as is one the server says cannot call tools.
 */
async function pickModel(argument: string, context: SlashContext): Promise<void> {
  if (/\s/.test(argument)) {
    context.notice('warning', 'Usage: /model <id or number>: a model id has no spaces (/model lists them).');
    return;
  }
  let found: ServerModels | undefined;
  let failure: unknown;
  try {
    found = await context.serverModels();
  } catch (error) {
    failure = error;
  }
  const listed = found && listedModel(found, argument);
  const id = listed?.id ?? argument;
  context.chooseModel(id);
  const using = `Using ${id} for the next prompts`;
  if (!found) {
    const { message } = toErrorObject(failure);
    context.notice('warning', `${using}; it could not be checked against the server's list: ${message}`);
  } else if (!listed) {
    context.notice(
      'warning',
      `${using}, but ${found.url} does not list it. Some servers do not list every model; if the name is wrong, the next prompt fails. /model lists the ones it does.`,
    );
  } else if (listed.tools === false) {
    context.notice(
      'warning',
      `${using}, but the server says it cannot call tools, which the agent needs to read or change files. /model shows which models can.`,
    );
  } else {
    const facts = modelFacts(listed);
    context.notice('info', `${using}${facts ? ` (${facts})` : ''}.`);
  }
}
