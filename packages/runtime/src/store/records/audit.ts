/** The spec's audit entry (section 2), with the run it belongs to. */
export interface AuditEntry {
  id: string;
  timestamp: string;
  /** tool_call, file_write, file_edit, command_exec, api_request, auth_failure, run_control, … */
  event: string;
  tool_name: string | null;
  args_summary: string;
  result_summary: string;
  session_id: string | null;
  run_id: string | null;
  workdir: string;
  success: boolean;
}

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'timestamp'>;

export interface AuditQuery {
  event?: string;
  run_id?: string;
  /** ISO 8601: only entries at or after it. */
  since?: string;
  /** Default 50. */
  limit?: number;
}
