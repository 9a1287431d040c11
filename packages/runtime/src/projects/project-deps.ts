import type { ImagePayload } from '../model/index.ts';
import type { Run, RunStore, SessionStore } from '../store/index.ts';
import type { Workflow } from '../workflow/index.ts';

/** The part of a run request projects and tasks fill in (see RunRequest). */
export interface ProjectRunRequest {
  prompt: string;
  workdir: string;
  session_id?: string;
  allowed_roots?: string[];
  images?: ImagePayload[];
  model?: string;
  enable_thinking?: boolean;
  thinking_budget?: number;
}

/** How a project or task starts a run: the runtime's `start`. */
export type StartRun = (
  request: ProjectRunRequest,
  options: { workflow?: Workflow; execute?: boolean },
) => Promise<Run>;

/** What the projects and tasks APIs work through: the runtime's store, sessions and runs. */
export interface ProjectDeps {
  store: () => Promise<RunStore>;
  sessions: SessionStore;
  /** The user's runtime directory (project memory lives under it). */
  runtimeDir: string;
  start: StartRun;
}

/** A chat message on a project or a task: one turn of its session, run as a durable run. */
export interface ProjectChatMessage {
  prompt: string;
  images?: ImagePayload[];
  model?: string;
  enable_thinking?: boolean;
  thinking_budget?: number;
}

export interface StartOptions {
  /** Execute the run in this process, in the background (default true); false leaves it queued. */
  execute?: boolean;
}
