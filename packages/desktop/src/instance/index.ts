export { ask, claimInstance, type InstanceClaim, instanceSocketPath } from './instance-socket.ts';
export type { InstanceAnswer, InstanceRequest } from './messages.ts';
