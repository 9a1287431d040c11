import { z } from 'zod';
import { conversation } from './library.ts';
import { knowledgeLayer, project } from './projects.ts';
import { session } from './sessions.ts';
import { planVersion, task, todo } from './tasks.ts';

// The answers that carry more than one record: work started (a record and its session), edits that
// answer the whole list.

/** Work started in a stage (202): the task, and the session the work runs in. */
export const taskWithSession = z.object({ task, session });
/** A todo started (202): the todo, and its session. */
export const todoWithSession = z.object({ todo, session });
/** A follow-up: the task back in CODING, and its todos with the new ones at the end. */
export const taskWithTodos = z.object({ task, todos: z.array(todo) });
/** A todo added or edited, and the whole list after it. */
export const todoWithList = z.object({ todo, todos: z.array(todo) });
/** plan.md saved by hand: the task, and the version it became. */
export const planSaved = z.object({ task, version: planVersion });
export const planVersionList = z.object({ task_id: z.string(), versions: z.array(planVersion) });
/** Knowledge generation started (202): the project, and every layer's record. */
export const projectInitStarted = z.object({ project, knowledge: z.array(knowledgeLayer) });
/** A conversation initialized (201): the conversation, and the session to chat in. */
export const conversationStarted = z.object({ conversation, session });

export type TaskWithSession = z.infer<typeof taskWithSession>;
export type TodoWithSession = z.infer<typeof todoWithSession>;
export type TaskWithTodos = z.infer<typeof taskWithTodos>;
export type TodoWithList = z.infer<typeof todoWithList>;
export type PlanSaved = z.infer<typeof planSaved>;
export type PlanVersionList = z.infer<typeof planVersionList>;
export type ProjectInitStarted = z.infer<typeof projectInitStarted>;
export type ConversationStarted = z.infer<typeof conversationStarted>;
