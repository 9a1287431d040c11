export type { BubblewrapOptions } from './bubblewrap.ts';
export { BubblewrapSandbox } from './bubblewrap.ts';
export type { SandboxSettings } from './create-sandbox.ts';
export { createSandbox } from './create-sandbox.ts';
export { findExecutable } from './find-executable.ts';
export type { Sandbox, SandboxCommand } from './sandbox.ts';
