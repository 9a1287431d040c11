import type { Skill } from '../store/index.ts';

// A skill's record is the store's (store/records/skill.ts): the store imports no area.
export type { Skill };

export interface SkillWithContent extends Skill {
  /** The SKILL.md body (after its front matter). */
  content: string;
}
