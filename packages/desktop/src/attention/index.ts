export { type Attention, type AttentionKind, AttentionTracker, attentionOf } from './attention.ts';
export { notify } from './notify.ts';
export { type TaskWatch, type WatchOptions, watchTasks } from './watch-tasks.ts';
