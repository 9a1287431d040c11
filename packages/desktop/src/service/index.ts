export { findRunningWorkbench, lastStart } from './running-service.ts';
export {
  attachedService,
  type StartOptions,
  startWorkbench,
  type WorkbenchService,
  workbenchBin,
} from './workbench-service.ts';
