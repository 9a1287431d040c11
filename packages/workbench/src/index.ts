/**
 * @keel/workbench: the local AI development workbench service.
 *
 * @example
 * import { createWorkbench } from '@keel/workbench';
 * const workbench = await createWorkbench({ home: '/tmp/wb' });
 * console.log(await workbench.listen(0));
 */
export { createWorkbench, type Workbench, type WorkbenchOptions } from './app.ts';
export { readConfig, type WorkbenchConfig } from './config.ts';
export { WorkbenchError, type WorkbenchErrorObject } from './errors.ts';
export { main } from './main.ts';
export type { Services } from './services.ts';
// The store contract, for another dialect (`@keel/store-postgres/workbench`) or an embedder's own store.
export type * from './store/index.ts';
// The row mapping and answers every store dialect shares, so that they answer alike.
export {
  decodeJson,
  imageInfoOf,
  interrupted,
  interruptedTaskPatch,
  listedTaskFromRow,
  noSessions,
  projectFromRow,
  projectJsonColumns,
  recordNotFound,
  sessionFromRow,
  sessionJsonColumns,
  skillExists,
  taskFromRow,
  taskJsonColumns,
  todoFromRow,
  wireWorkbenchStore,
  withImageInfo,
} from './store/index.ts';
// A stage registered from outside (README "Adding a stage"): the registry, its place, and the hand-off.
export {
  afterSetup,
  defaultStages,
  type FlowState,
  moveTask,
  type StageEntry,
  type StageModule,
  type TaskDeps,
  withStage,
} from './tasks/index.ts';
