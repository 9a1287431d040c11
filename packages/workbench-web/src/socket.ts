import { workbench } from './api/client.ts';

/**
 * The app's one WebSocket, multiplexing every session it follows (it connects on the first subscription):
 * @keel/workbench-client's `WorkbenchSocket`, on the page's service, with the key read at every connect.
 */
export const socket = workbench.socket();
