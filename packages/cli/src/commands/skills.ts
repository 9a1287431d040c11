import type { Skill } from '@keel/runtime';
import { globalConfigPath, projectConfigPath, readEnv } from '@keel/runtime/internal';
import type { Command } from 'commander';
import { printJson, type WorkdirFlags, withRuntime, workdirOf, workdirOption } from '../cli-runtime.ts';
import type { CliIo } from '../io.ts';
import { formatSkillDetail, formatSkillTable, formatSkillWarning } from '../render/skills.ts';
import { terminalSafe } from '../render/terminal-safe.ts';
import { describe } from './descriptions.ts';

interface SkillsFlags extends WorkdirFlags {
  json?: boolean;
  project?: boolean;
}

/** `keel skills list|show|enable|disable`: the skills the agent can read, and which are enabled. */
export function registerSkills(program: Command, io: CliIo): void {
  const skills = program.command('skills').description(describe('skills'));

  workdirOption(skills.command('list'))
    .description('List the skills: name, enabled, source (builtin, user, project, custom), description')
    .option('--json', 'print JSON')
    .action((flags: SkillsFlags) =>
      withRuntime(io, flags, async (runtime) => {
        const list = await runtime.skills.list();
        if (flags.json) return void printJson(io, list);
        io.out.write(
          list.skills.length ? `${formatSkillTable(list.skills).join('\n')}\n` : 'No skills found.\n',
        );
        for (const warning of list.warnings) io.err.write(`${formatSkillWarning(warning)}\n`);
      }),
    );

  workdirOption(skills.command('show'))
    .description('Show a skill and its documentation (the body of its SKILL.md)')
    .argument('<name>')
    .option('--json', 'print JSON')
    .action((name: string, flags: SkillsFlags) =>
      withRuntime(io, flags, async (runtime) => {
        const skill = await runtime.skills.get(name);
        if (flags.json) printJson(io, skill);
        else io.out.write(`${formatSkillDetail(skill)}\n`);
      }),
    );

  for (const enabled of [true, false]) {
    const verb = enabled ? 'enable' : 'disable';
    workdirOption(skills.command(verb))
      .description(`${enabled ? 'Enable' : 'Disable'} a skill in the global configuration (or the project's)`)
      .argument('<name>')
      .option('--project', "write the project's .runtime/config.json instead of the global file")
      .option('--json', 'print the skill as JSON')
      .action((name: string, flags: SkillsFlags) =>
        withRuntime(io, flags, async (runtime) => {
          const scope = flags.project ? 'project' : 'global';
          const skill = await runtime.skills[verb](name, { scope });
          if (flags.json) printJson(io, skill);
          else io.out.write(`${enabled ? 'Enabled' : 'Disabled'} ${name} in ${configPath(io, flags)}\n`);
          if (skill.enabled !== enabled) io.err.write(`${overriddenNote(skill, enabled)}\n`);
        }),
      );
  }
}

function configPath(io: CliIo, flags: SkillsFlags): string {
  return flags.project ? projectConfigPath(workdirOf(io, flags)) : globalConfigPath(readEnv(io.env).home);
}

// Only a global change can be overridden: the project file's own skills lists take precedence.
function overriddenNote(skill: Skill, wanted: boolean): string {
  return terminalSafe(
    `Note: ${skill.name} is still ${wanted ? 'disabled' : 'enabled'} here: the project's .runtime/config.json ` +
      `sets skills for this directory. Run with --project to change it there.`,
  );
}
