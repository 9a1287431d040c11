import { z } from 'zod';
import { timestamp } from './common.ts';

export const skill = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Ids of the projects the skill is linked to. */
  project_ids: z.array(z.string()),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Skill = z.infer<typeof skill>;

/** A skill with its SKILL.md body (after its front matter). */
export const skillWithContent = skill.extend({ content: z.string() });
export type SkillWithContent = z.infer<typeof skillWithContent>;

export const skillList = z.object({ skills: z.array(skill) });

/** A free conversation (about a project or not): a row, and once initialized a session to chat in. */
export const conversation = z.object({
  id: z.string(),
  title: z.string(),
  project_id: z.string().nullable(),
  session_id: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Conversation = z.infer<typeof conversation>;

export const conversationList = z.object({ conversations: z.array(conversation) });

/** `GET /api/directories`: one directory of the workbench's machine, for picking repositories. */
export const directoryListing = z.object({
  path: z.string(),
  /** The directory above, or null at the root. */
  parent: z.string().nullable(),
  entries: z.array(
    z.object({ name: z.string(), path: z.string(), is_dir: z.boolean(), is_git_repo: z.boolean() }),
  ),
  /** How many entries the directory has in all (hidden ones only when asked). */
  total: z.number().int(),
  /** Where this page starts in the sorted entries (`?offset=`, default 0). */
  offset: z.number().int(),
  /** More entries follow this page: ask again with `offset` + `entries.length`. */
  truncated: z.boolean(),
});
export type DirectoryListing = z.infer<typeof directoryListing>;
