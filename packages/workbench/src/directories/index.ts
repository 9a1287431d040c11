export type { DirectoryEntry, DirectoryListing } from './list-directory.ts';
export { listDirectory } from './list-directory.ts';
export { directoryRoutes } from './routes.ts';
