// Skills, conversations and project updates: the wire's types from @keel/protocol, and what the SPA adds (the
// skill-name hint, the providers list).
export type {
  Conversation,
  ConversationCreate,
  ProjectUpdate,
  Skill,
  SkillCreate,
  SkillUpdate,
  SkillWithContent,
} from '@keel/protocol/workbench';

import type { repositoryProviders } from '@keel/protocol/workbench/names';

/** The service's rule for a skill name (the Agent Skills format): shown as the name field's hint. */
export const skillNameRule = 'lowercase letters and hyphens, at most 64 characters (e.g. code-review)';
export const skillNamePattern = '[a-z0-9]+(-[a-z0-9]+)*';

export { repositoryProviders as providers } from '@keel/protocol/workbench/names';
export type Provider = (typeof repositoryProviders)[number];
