// Skills, conversations and project updates as the workbench's API takes and answers them
// (packages/workbench/src/skills, src/conversations, src/projects). Apart from types.ts to keep both small.
import type { RepositoryType } from './types.ts';

/** The service's rule for a skill name (the Agent Skills format): shown as the name field's hint. */
export const skillNameRule = 'lowercase letters and hyphens, at most 64 characters (e.g. code-review)';
export const skillNamePattern = '[a-z0-9]+(-[a-z0-9]+)*';

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
  /** The SKILL.md body, Markdown. */
  content: string;
}

export interface SkillCreate {
  name: string;
  description: string;
  content: string;
}

export interface SkillUpdate {
  description?: string;
  content?: string;
}

export interface Conversation {
  id: string;
  title: string;
  project_id: string | null;
  session_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface ConversationCreate {
  title: string;
  project_id?: string | null;
}

export const providers = ['gitlab', 'github', 'other'] as const;
export type Provider = (typeof providers)[number];

// `PUT /api/projects/{id}`: new repositories reset the knowledge (status CREATED).
export interface ProjectUpdate {
  name?: string;
  description?: string;
  repositories?: { path: string; type: RepositoryType; name?: string; provider?: Provider }[];
  default_runner?: string | null;
}
