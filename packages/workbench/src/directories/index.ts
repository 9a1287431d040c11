export { listDirectory } from './list-directory.ts';
export { directoryRoutes } from './routes.ts';
