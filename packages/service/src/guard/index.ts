export { ApiKey, offeredKey } from './api-key.ts';
export { type BindCheck, checkBind } from './bind.ts';
export { HostAllowList, hostnameOf, isLoopback, plainAddress } from './hosts.ts';
export { OriginAllowList, originOf } from './origins.ts';
export { type Privilege, type PrivilegeRefusal, privilegedChangeRefusal } from './privilege.ts';
export { installRequestGuard, type RequestGuardOptions, type SocketAuthorizer } from './request-guard.ts';
