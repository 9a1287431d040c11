import type { Artifact, BlobStore, RunStore } from '../store/index.ts';

/** Artifacts: metadata from the store, payloads from the blob store. */
export class ArtifactsApi {
  readonly #opened: () => Promise<{ store: RunStore; blobs: BlobStore }>;

  constructor(opened: () => Promise<{ store: RunStore; blobs: BlobStore }>) {
    this.#opened = opened;
  }

  async get(id: string): Promise<Artifact> {
    return (await this.#opened()).store.getArtifact(id);
  }

  /** The payload of an artifact. */
  async read(id: string): Promise<Uint8Array> {
    const { store, blobs } = await this.#opened();
    return blobs.get((await store.getArtifact(id)).uri);
  }
}
