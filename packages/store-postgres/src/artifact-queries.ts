import { InvalidParamsError, RecordNotFoundError } from '@keel/runtime/errors';
import { newId } from '@keel/runtime/store';
import type {
  Artifact,
  AuditEntry,
  AuditQuery,
  NewArtifact,
  NewAuditEntry,
} from '@keel/runtime/store/contract';
import { limitOf } from './approval-queries.ts';
import type { Database } from './database.ts';
import { json } from './database.ts';
import type { ArtifactRow, AuditRow } from './rows.ts';
import { toArtifact, toAudit } from './rows.ts';

// Artifacts (the records; payloads live in a BlobStore) and the audit log.

export async function addArtifact(db: Database, input: NewArtifact): Promise<Artifact> {
  const row = await db.row<ArtifactRow>(
    `INSERT INTO ${db.t.artifacts}
       (id, run_id, step_id, node_id, name, kind, media_type, size, sha256, uri, metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb) RETURNING *`,
    [
      input.id ?? newId('art'),
      input.run_id,
      input.step_id,
      input.node_id,
      input.name,
      input.kind,
      input.media_type,
      input.size,
      input.sha256,
      input.uri,
      json(input.metadata ?? {}),
    ],
    { runId: input.run_id },
  );
  return toArtifact(row!);
}

export async function getArtifact(db: Database, id: string): Promise<Artifact> {
  const row = await db.row<ArtifactRow>(`SELECT * FROM ${db.t.artifacts} WHERE id = $1`, [id]);
  if (!row) throw new RecordNotFoundError('ARTIFACT_NOT_FOUND', 'Artifact', id);
  return toArtifact(row);
}

export async function listArtifacts(db: Database, runId: string): Promise<Artifact[]> {
  const rows = await db.rows<ArtifactRow>(`SELECT * FROM ${db.t.artifacts} WHERE run_id = $1 ORDER BY ord`, [
    runId,
  ]);
  return rows.map(toArtifact);
}

export async function recordAudit(db: Database, entry: NewAuditEntry): Promise<AuditEntry> {
  const row = await db.row<AuditRow>(
    `INSERT INTO ${db.t.audit}
       (id, event, tool_name, args_summary, result_summary, session_id, run_id, workdir, success)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
    [
      newId('aud'),
      entry.event,
      entry.tool_name,
      entry.args_summary,
      entry.result_summary,
      entry.session_id,
      entry.run_id,
      entry.workdir,
      entry.success,
    ],
  );
  return toAudit(row!);
}

export async function listAudit(
  db: Database,
  query: AuditQuery = {},
): Promise<{ entries: AuditEntry[]; total: number }> {
  const where = `($1::text IS NULL OR event = $1) AND ($2::text IS NULL OR run_id = $2)
     AND ($3::timestamptz IS NULL OR timestamp >= $3::timestamptz)`;
  if (query.since !== undefined && Number.isNaN(Date.parse(query.since))) {
    throw new InvalidParamsError(`'since' must be an ISO 8601 timestamp, not '${query.since}'.`, {
      since: query.since,
    });
  }
  const filters = [query.event ?? null, query.run_id ?? null, query.since ?? null];
  const [rows, count] = await Promise.all([
    db.rows<AuditRow>(`SELECT * FROM ${db.t.audit} WHERE ${where} ORDER BY ord DESC LIMIT $4`, [
      ...filters,
      limitOf(query.limit, 50),
    ]),
    db.row<{ total: string }>(`SELECT count(*) AS total FROM ${db.t.audit} WHERE ${where}`, filters),
  ]);
  return { entries: rows.map(toAudit), total: Number(count?.total ?? 0) };
}
