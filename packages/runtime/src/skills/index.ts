export type { SkillLookupOptions } from './catalog.ts';
export { getSkill, listSkills, setSkillEnabled, skillsForRun } from './catalog.ts';
export type { FoundSkill } from './discover.ts';
export { builtinSkillsDir } from './search-dirs.ts';
export type { Skill, SkillDetail, SkillList, SkillScope, SkillSource, SkillWarning } from './skill.ts';
export { skillSources } from './skill.ts';
export { skillNameProblem } from './skill-file.ts';
export { createSkillTools, withSkillTools } from './skill-tools.ts';
