import type { Skill, SkillDetail, SkillWarning } from '@keel/runtime';
import { terminalSafe } from './terminal-safe.ts';
import { truncate } from './truncate.ts';

/** `keel skills list` and the TUI's `/skills`: one aligned row per skill (terminal-safe: SKILL.md is a repository's). */
export function formatSkillTable(skills: readonly Skill[], descriptionWidth = 80): string[] {
  const rows = [
    ['NAME', 'ENABLED', 'SOURCE', 'DESCRIPTION'],
    ...skills.map((skill) => [
      skill.name,
      skill.enabled ? 'yes' : 'no',
      skill.source,
      truncate(skill.description, descriptionWidth),
    ]),
  ];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    terminalSafe(
      row
        .map((cell, column) => (column < 3 ? cell.padEnd(widths[column]!) : cell))
        .join('  ')
        .trimEnd(),
    ),
  );
}

/** `keel skills show`: the skill's fields, then its documentation. */
export function formatSkillDetail(skill: SkillDetail): string {
  return terminalSafe(
    [
      `Name         ${skill.name}`,
      `Enabled      ${skill.enabled ? 'yes' : 'no'}`,
      `Source       ${skill.source}`,
      `Path         ${skill.path}`,
      `Description  ${skill.description}`,
      '',
      skill.documentation,
    ].join('\n'),
  );
}

/** A skipped SKILL.md or a setting that names no skill, as one line. */
export function formatSkillWarning(warning: SkillWarning): string {
  return terminalSafe(`Warning: ${warning.path}: ${warning.message}`);
}
