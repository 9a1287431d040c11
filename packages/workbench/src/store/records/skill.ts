export interface Skill {
  id: string;
  name: string;
  description: string;
  /** Ids of the projects the skill is linked to. */
  project_ids: string[];
  created_at: string;
  updated_at: string;
}

/** The skill library's rows and their links to projects (the SKILL.md files are the service's). */
export interface SkillRecords {
  /** By name; only those linked to `projectId` when given. Each with its linked project ids, sorted. */
  list(projectId?: string): Promise<Skill[]>;
  /** Throws 404 SKILL_NOT_FOUND. */
  get(id: string): Promise<Skill>;
  /** The skill of that name, or undefined. */
  findByName(name: string): Promise<Skill | undefined>;
  /** A new skill; a name in use already is a 409 SKILL_EXISTS. */
  create(input: { name: string; description: string }): Promise<Skill>;
  /** SKILL_NOT_FOUND for an unknown id. */
  update(id: string, patch: { description: string }): Promise<Skill>;
  /** Deletes the skill and its links; SKILL_NOT_FOUND for an unknown id. */
  remove(id: string): Promise<void>;
  /** Links or unlinks a project (either twice is a no-op). */
  link(id: string, projectId: string, linked: boolean): Promise<void>;
}
