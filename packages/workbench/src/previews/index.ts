// A task's previews (issue #37): a repository's run/dev command, found from its files, started by the user
// in the task's workspace (sandboxed, on a loopback PORT), its log and state live, stopped with the task.

export {
  detectPreview,
  type PreviewCommand,
  type PreviewSetting,
  previewSettingOf,
} from './detect-preview.ts';
export { type PreviewLaunchOptions, previewLaunch } from './preview-launch.ts';
export { type PreviewListener, PreviewProcess, type PreviewTimings } from './preview-process.ts';
export { type PreviewDeps, PreviewService } from './preview-service.ts';
export { previewRoutes } from './routes.ts';
