export type { BubblewrapOptions } from './bubblewrap.ts';
export { BubblewrapSandbox } from './bubblewrap.ts';
export type { ContainerOptions } from './container.ts';
export { ContainerSandbox, defaultContainerImage } from './container.ts';
export type { ControlPath } from './control-paths.ts';
export { findControlPaths, gitControlNames } from './control-paths.ts';
export type { ControlSnapshot } from './control-sweep.ts';
export { snapshotControlPaths, sweepNewControlPaths, sweepNotice } from './control-sweep.ts';
export type {
  RemoteSandboxSettings,
  SandboxEnvironment,
  SandboxSettings,
  SandboxStatus,
} from './create-sandbox.ts';
export { createSandbox, sandboxStatus } from './create-sandbox.ts';
export { findExecutable, findExecutableSync } from './find-executable.ts';
export type { ExecEnd, ExecLine, RemoteEntry, RemoteSandboxInfo } from './remote-api.ts';
export { RemoteApiError, RemoteSandboxApi } from './remote-api.ts';
export type { RemoteSandboxOptions } from './remote-sandbox.ts';
export { defaultRemoteIdleTimeoutS, RemoteSandbox } from './remote-sandbox.ts';
export type { Sandbox, SandboxCommand } from './sandbox.ts';
export type { SeatbeltOptions } from './seatbelt.ts';
export { SeatbeltSandbox, seatbeltProfile } from './seatbelt.ts';
