import { RecordNotFoundError, RunNotFoundError } from '../../errors/index.ts';
import type { Artifact, AuditEntry, AuditQuery, NewArtifact, NewAuditEntry } from '../contract.ts';
import { type SqliteContext, stamp } from './context.ts';
import { type Row, toArtifact, toAuditEntry, toJson } from './rows.ts';

// Artifacts a run records (their payloads live in the blob store), and the audit log.

export function addArtifact(ctx: SqliteContext, input: NewArtifact): Artifact {
  const { now, id } = stamp(ctx, 'art');
  const row = ctx.sql.insertArtifact.get({
    id: input.id ?? id,
    run_id: input.run_id,
    step_id: input.step_id,
    node_id: input.node_id,
    name: input.name,
    kind: input.kind,
    media_type: input.media_type,
    size: input.size,
    sha256: input.sha256,
    uri: input.uri,
    metadata: toJson(input.metadata),
    now,
  }) as Row | undefined;
  if (!row) throw new RunNotFoundError(input.run_id);
  return toArtifact(row);
}

export function getArtifact(ctx: SqliteContext, id: string): Artifact {
  const row = ctx.sql.getArtifact.get({ id }) as Row | undefined;
  if (!row) throw new RecordNotFoundError('ARTIFACT_NOT_FOUND', 'Artifact', id);
  return toArtifact(row);
}

export function listArtifacts(ctx: SqliteContext, runId: string): Artifact[] {
  return (ctx.sql.listArtifacts.all({ run_id: runId }) as Row[]).map(toArtifact);
}

export function recordAudit(ctx: SqliteContext, entry: NewAuditEntry): AuditEntry {
  const { now, id } = stamp(ctx, 'aud');
  const row = ctx.sql.insertAudit.get({
    id,
    now,
    event: entry.event,
    tool_name: entry.tool_name,
    args_summary: entry.args_summary,
    result_summary: entry.result_summary,
    session_id: entry.session_id,
    run_id: entry.run_id,
    workdir: entry.workdir,
    success: entry.success ? 1 : 0,
  }) as Row;
  return toAuditEntry(row);
}

export function listAudit(ctx: SqliteContext, query: AuditQuery): { entries: AuditEntry[]; total: number } {
  const filter = { event: query.event ?? null, run_id: query.run_id ?? null, since: query.since ?? null };
  // One read transaction: the page and the total come from the same snapshot.
  ctx.sql.beginRead.run();
  try {
    const rows = ctx.sql.listAudit.all({ ...filter, limit: query.limit ?? 50 }) as Row[];
    const { total } = ctx.sql.countAudit.get(filter) as { total: number };
    return { entries: rows.map(toAuditEntry), total };
  } finally {
    ctx.sql.commit.run();
  }
}
