export { FsBlobStore } from './fs-blob-store.ts';
