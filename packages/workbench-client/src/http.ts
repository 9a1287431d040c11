import {
  type Call,
  type CallOptions,
  createCall as createServiceCall,
  type Fetch,
  send,
} from '@keel/protocol/client';
import { WorkbenchApiError, WorkbenchResponseError } from './errors.ts';

// The REST core (URL, key, JSON, refusals, schema check) is @keel/protocol/client's; what is the
// workbench's own: a key that may be a function, `onUnauthorized`, and answers that are bytes.
export { type Call, type CallOptions, type Fetch, segment } from '@keel/protocol/client';

/** The API key, or a function read at every request (a browser asks for it after a 401, say). */
export type ApiKey = string | (() => string | null | undefined);

export interface HttpOptions {
  baseUrl: string;
  apiKey?: ApiKey | undefined;
  fetch: Fetch;
  /** Hears every 401 before the call rejects (a page opens its key prompt). */
  onUnauthorized?: (() => void) | undefined;
}

/** One REST call whose answer is bytes (an image): refused as `Call` is, answered as a `Blob`. */
export type CallBlob = (method: string, path: string, options?: CallOptions) => Promise<Blob>;

/** The key now: the string, or what the function answers (nothing when empty). */
export function keyOf(apiKey: ApiKey | undefined): string | undefined {
  const key = typeof apiKey === 'function' ? apiKey() : apiKey;
  return key || undefined;
}

export function createCall({ baseUrl, apiKey, fetch, onUnauthorized }: HttpOptions): {
  call: Call;
  blob: CallBlob;
} {
  const http = {
    baseUrl,
    key: () => keyOf(apiKey),
    fetch,
    errors: { api: WorkbenchApiError, response: WorkbenchResponseError },
    onRefused: (response: Response) => {
      if (response.status === 401) onUnauthorized?.();
    },
  };
  const blob: CallBlob = async (method, path, options = {}) =>
    (await send(http, method, path, '*/*', options)).response.blob();
  return { call: createServiceCall(http), blob };
}
