// Projects and development tasks of the web API (`/api/projects`, `/api/tasks`): a directory the user
// works on, with its chat session, and the tasks on it, each with its own git branch and session.

export interface Project {
  id: string;
  name: string;
  description: string;
  /** The project's directory: absolute, symlinks resolved (the normalised workdir every surface uses). */
  workdir: string;
  /** Further code directories the project's chats may read and write (absolute, normalised). */
  code_paths: string[];
  /** The project's chat session, made with the project. */
  session_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface NewProject {
  name: string;
  description: string;
  workdir: string;
  code_paths: string[];
  session_id: string | null;
}

/** The fields an update may change; absent ones stay as they are. */
export interface ProjectChange {
  name?: string;
  description?: string;
  workdir?: string;
  code_paths?: string[];
}

export interface Task {
  id: string;
  project_id: string;
  name: string;
  /** The git branch of the project's repository the task works on. */
  branch_name: string;
  /** The task's own chat session, separate from the project's. */
  session_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface NewTask {
  project_id: string;
  name: string;
  branch_name: string;
  session_id: string | null;
}

export interface TaskChange {
  name?: string;
  branch_name?: string;
}

/** A page of projects or tasks, newest first. */
export interface ProjectQuery {
  /** Default 50. */
  limit?: number;
  /** Page cursor: only records whose id sorts before this one. */
  before?: string;
}
