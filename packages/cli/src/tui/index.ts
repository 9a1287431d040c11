export { registerTui } from './command.ts';
