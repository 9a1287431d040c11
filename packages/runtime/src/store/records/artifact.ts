import type { JsonObject } from './json.ts';

// Artifacts: the records of files and reviews a run produced; their payloads live in a BlobStore.

export interface Artifact {
  id: string;
  run_id: string;
  step_id: string | null;
  node_id: string | null;
  /** A short name, e.g. `review.json` or the path of a file. */
  name: string;
  /** What it is: `review`, `output`, `file`, … */
  kind: string;
  media_type: string;
  size: number;
  sha256: string;
  /** Where the payload lives in the blob store (`file:…` or `s3://…`). */
  uri: string;
  metadata: JsonObject;
  created_at: string;
}

export type NewArtifact = Omit<Artifact, 'id' | 'created_at'> & { id?: string };
