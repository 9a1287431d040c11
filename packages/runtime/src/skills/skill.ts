/** Where a skill was found; a later source overrides an earlier one of the same name. */
export type SkillSource = 'builtin' | 'global' | 'project' | 'custom';

/** The sources from lowest to highest priority (spec section 2: custom, project, global, builtin, highest first). */
export const skillSources: readonly SkillSource[] = ['builtin', 'global', 'project', 'custom'];

/** A skill as every surface lists it (spec section 2, "Skill"). */
export interface Skill {
  name: string;
  description: string;
  enabled: boolean;
  source: SkillSource;
}

/** A skill with its documentation: the SKILL.md body, loaded on demand. */
export interface SkillDetail extends Skill {
  documentation: string;
  /** The skill's directory, holding SKILL.md and optionally scripts/, references/, assets/. */
  path: string;
}

/** A SKILL.md that was skipped, or a setting that names no skill: listed, never fatal. */
export interface SkillWarning {
  /** The file or directory concerned; the configuration key for a setting. */
  path: string;
  message: string;
}

/** What `list` answers: the skills found, and what was skipped and why. */
export interface SkillList {
  skills: Skill[];
  warnings: SkillWarning[];
}

/** Which configuration file `enable` and `disable` write. */
export type SkillScope = 'global' | 'project';
