export type {
  Conversation,
  ConversationCreate,
  ProjectUpdate,
  Skill,
  SkillWithContent,
} from '@keel/protocol/workbench';

import type { repositoryProviders } from '@keel/protocol/workbench/names';

/** The service's rule for a skill name (the Agent Skills format): shown as the name field's hint. */
export const skillNameRule = 'lowercase letters and hyphens, at most 64 characters (e.g. code-review)';
export const skillNamePattern = '[a-z0-9]+(-[a-z0-9]+)*';

export interface SkillCreate {
  name: string;
  description: string;
  content: string;
}

export interface SkillUpdate {
  description?: string;
  content?: string;
}

export { repositoryProviders as providers } from '@keel/protocol/workbench/names';
export type Provider = (typeof repositoryProviders)[number];
