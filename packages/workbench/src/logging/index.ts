export { FailureLog } from './failure-log.ts';
