export interface Conversation {
  id: string;
  title: string;
  project_id: string | null;
  session_id: string | null;
  created_at: string;
  updated_at: string;
}
