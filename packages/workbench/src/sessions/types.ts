import type { RunnerErrorObject, RunnerEvent, RunnerKind, RunnerUsage } from '../runners/index.ts';

export const sessionStatuses = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type SessionStatus = (typeof sessionStatuses)[number];
export const finishedSessionStatuses: readonly SessionStatus[] = ['succeeded', 'failed', 'cancelled'];

/** What a session is for; with `owner_id` it says which record it belongs to. */
export const sessionKinds = [
  'knowledge',
  'task_init',
  'plan',
  'coding',
  'reviewer',
  'review',
  'conversation',
] as const;
export type SessionKind = (typeof sessionKinds)[number];

/** A step of the workbench's own work (task initialization), logged beside the runner's events. */
export interface StepEvent {
  type: 'step';
  step: string;
  status: 'running' | 'done' | 'failed';
  detail?: string;
  error?: RunnerErrorObject;
}

/**
 * A change the user made by hand (the plan, the todo list, the commit message), logged in the session of
 * that stage so its log tells the whole story. `action`: `edit_plan`, `add_todo`, `edit_todo`,
 * `remove_todo`, `reorder_todos`, `edit_commit_message`.
 */
export interface UserActionEvent {
  type: 'user_action';
  action: string;
  /** What changed, in words. */
  detail: string;
  data?: Record<string, unknown>;
}

/** Every event a session log holds: the runner's normalised events, the workbench's steps, user actions. */
export type SessionEvent = RunnerEvent | StepEvent | UserActionEvent;

/** One line of `{WORKBENCH_HOME}/sessions/{session_id}.jsonl`. `seq` is gapless from 1. */
export interface LogEntry {
  seq: number;
  timestamp: string;
  event: SessionEvent;
}

/** Where and how a session's runner works; kept so that a later turn (chat) runs the same way. */
export interface SessionContext {
  workdir: string;
  allowedRoots?: string[];
  instructions?: string;
  skillDirs: string[];
  /** The agent may read the workdir but not change it (knowledge runs in the user's own repositories). */
  readOnly?: boolean;
}

/** A chat message waiting in a session's queue (`GET /api/sessions/{id}/queue`). */
export interface QueuedMessageView {
  id: string;
  content: string;
  queued_at: string;
}

export interface SessionRecord {
  id: string;
  kind: SessionKind;
  owner_id: string | null;
  status: SessionStatus;
  /** The runner kind that ran it. */
  runner: RunnerKind | null;
  runner_config_id: string;
  /** The runner's own conversation id: later turns resume it. */
  runner_session_id: string | null;
  run_id: string | null;
  context: SessionContext;
  error: RunnerErrorObject | null;
  usage: RunnerUsage | null;
  last_seq: number;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
  /**
   * Held for work: true from the 202 that accepted it (before its turn started) until it ended, also
   * while a queued chat message waits to start. A client offers Stop while it is true.
   */
  busy: boolean;
}
