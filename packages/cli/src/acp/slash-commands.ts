import type { AvailableCommand } from '@agentclientprotocol/sdk';
import type { Runtime, Skill } from '@keel/runtime';
import { createProjectConfig, projectConfigIntro } from '../commands/init.ts';
import { formatSkillTable } from '../render/skills.ts';

/**
 * Keel's commands an editor offers after `/`: the ones that make sense inside an editor (the TUI's
 * `/new`, `/sessions`, `/clear` and `/quit` are the editor's own business), then one per enabled skill.
 */
const builtins: AvailableCommand[] = [
  {
    name: 'init',
    description: 'Give this project its own Keel configuration (.runtime/config.json), as `keel init` does',
  },
  { name: 'skills', description: 'List the skills Keel finds for this project, enabled or not' },
];

/** What a prompt that starts with `/name` does: answered here, or a run with the prompt rewritten. */
export type SlashOutcome = { kind: 'answer'; text: string } | { kind: 'prompt'; text: string };

/** The session's commands: Keel's, then each enabled skill's (a built-in keeps its name). */
export async function availableCommands(runtime: Runtime, workdir: string): Promise<AvailableCommand[]> {
  const skills = await enabledSkills(runtime, workdir);
  const taken = new Set(builtins.map((command) => command.name));
  return [
    ...builtins,
    ...skills
      .filter((skill) => !taken.has(skill.name))
      .map((skill) => ({
        name: skill.name,
        description: `Skill: ${skill.description}`,
        input: { hint: 'what to use the skill for' },
      })),
  ];
}

/**
 * A prompt that names one of the session's commands, run; anything else (a path such as `/etc/hosts …`,
 * an unknown word) is an ordinary prompt and undefined here.
 */
export async function runSlashCommand(
  text: string,
  commands: readonly AvailableCommand[],
  runtime: Runtime,
  workdir: string,
  readOnly = false,
): Promise<SlashOutcome | undefined> {
  const match = /^\/([\w-]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  const name = match?.[1];
  if (!name || !commands.some((command) => command.name === name)) return undefined;
  const argument = (match[2] ?? '').trim();
  if (name === 'init' && readOnly) {
    return {
      kind: 'answer',
      text: 'Read-only mode writes nothing: switch to Default mode to run /init (it writes .runtime/config.json).',
    };
  }
  if (name === 'init') {
    const path = await createProjectConfig(workdir);
    return {
      kind: 'answer',
      text: path
        ? `Created ${path}.\n\n${projectConfigIntro}`
        : 'This project has a .runtime/config.json already: change it with `keel config set <key> <value> --project`, or run `keel init --force` to start again from the starter file.',
    };
  }
  if (name === 'skills') {
    const { skills } = await runtime.skills.list({ workdir });
    if (skills.length === 0) {
      return {
        kind: 'answer',
        text: 'No skills found: add one as .runtime/skills/<name>/SKILL.md in the project.',
      };
    }
    return { kind: 'answer', text: `\`\`\`\n${formatSkillTable(skills, 60).join('\n')}\n\`\`\`` };
  }
  // A skill: the run reads it first, then does what was asked with it.
  return {
    kind: 'prompt',
    text: `Use the skill "${name}" (read it with read_skill first)${argument ? ` for this: ${argument}` : '.'}`,
  };
}

async function enabledSkills(runtime: Runtime, workdir: string): Promise<Skill[]> {
  try {
    return (await runtime.skills.list({ workdir })).skills.filter((skill) => skill.enabled);
  } catch {
    // A broken skills folder must not take the built-in commands with it.
    return [];
  }
}
