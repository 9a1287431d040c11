export type { CliIo } from './io.ts';
export { buildProgram, main } from './main.ts';
export { formatToolCall, truncate } from './render/truncate.ts';
