/**
 * @keel/desktop: `keel-desktop`, the Keel workbench in a window of its own. The program is the product;
 * these are its parts, for tests and for programs that embed the same behaviour.
 */
export { type Attention, type AttentionKind, AttentionTracker, attentionOf } from './attention/index.ts';
export { workbenchHome } from './home.ts';
export { instanceSocketPath } from './instance/index.ts';
export { main } from './main.ts';
export { findRunningWorkbench, lastStart, workbenchBin } from './service/index.ts';
export { type NavigationVerdict, navigationVerdict } from './window/index.ts';
