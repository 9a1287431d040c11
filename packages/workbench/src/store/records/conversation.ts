export interface Conversation {
  id: string;
  title: string;
  project_id: string | null;
  session_id: string | null;
  created_at: string;
  updated_at: string;
}

/** Free conversations (about a project or not). */
export interface ConversationRecords {
  /** Oldest first; only the project's when given. */
  list(projectId?: string): Promise<Conversation[]>;
  /** Throws 404 CONVERSATION_NOT_FOUND. */
  get(id: string): Promise<Conversation>;
  create(input: { title: string; project_id: string | null }): Promise<Conversation>;
  /** Sets the fields given and updated_at; CONVERSATION_NOT_FOUND for an unknown id. */
  update(id: string, patch: { title?: string; session_id?: string }): Promise<Conversation>;
  /** Deletes it (a no-op for an unknown id). */
  remove(id: string): Promise<void>;
}
