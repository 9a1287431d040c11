/** A message a user sent to a running run; the run shows it to the model at its next turn. */
export interface UserInput {
  id: string;
  run_id: string;
  content: string;
  created_at: string;
  /** When a checkpoint that holds it was written; null while it waits for the run's next turn. */
  consumed_at: string | null;
}
