export { admitSocket, readSocketMessage, type SocketMessage, unauthorizedClose } from './socket-message.ts';
