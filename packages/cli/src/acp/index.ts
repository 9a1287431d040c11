export { registerAcp } from './acp-command.ts';
