export interface Skill {
  id: string;
  name: string;
  description: string;
  /** Ids of the projects the skill is linked to. */
  project_ids: string[];
  created_at: string;
  updated_at: string;
}

export interface SkillWithContent extends Skill {
  /** The SKILL.md body (after its front matter). */
  content: string;
}
