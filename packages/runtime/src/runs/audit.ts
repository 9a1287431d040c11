import type { NewAuditEntry, RunStore } from '../store/index.ts';
import type { ToolAuditRecord } from '../tools/index.ts';

const summaryLength = 200;

/** Shortens a value for an audit summary (the audit log is for finding things, not for replaying them). */
export function summarize(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return text.length > summaryLength ? `${text.slice(0, summaryLength - 3)}...` : text;
}

/** An audit sink for the tool context of one run. */
export function toolAuditor(
  store: RunStore,
  run: { id: string | null; session_id: string | null; workdir: string },
): (record: ToolAuditRecord) => Promise<void> {
  return async (record) => {
    await store.recordAudit(toolAuditEntry(record, run));
  };
}

function toolAuditEntry(
  record: ToolAuditRecord,
  run: { id: string | null; session_id: string | null; workdir: string },
): NewAuditEntry {
  return {
    // The tool's own audit kind (ToolTraits.audit): files written or edited, commands run.
    event: record.event ?? 'tool_call',
    tool_name: record.tool_name,
    args_summary: summarize(record.args ?? {}),
    result_summary: summarize(record.result),
    session_id: run.session_id,
    run_id: run.id,
    workdir: run.workdir,
    success: record.success,
  };
}
