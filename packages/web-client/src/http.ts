import type { Fetch, ServiceHttp } from '@keel/protocol/client';
import { KeelWebApiError, KeelWebResponseError } from './errors.ts';

// The REST core (URL, key, JSON, refusals, schema check) is @keel/protocol/client's; keel-web's own is
// only which service and which errors: its key is a plain string (spec section 5).
export { type Call, createCall, type Fetch, segment } from '@keel/protocol/client';

export interface HttpOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  fetch: Fetch;
}

/** How the client reaches keel-web: its REST calls and its event streams (`events.ts`) share it. */
export function httpOf({ baseUrl, apiKey, fetch }: HttpOptions): ServiceHttp {
  return {
    baseUrl,
    key: () => apiKey,
    fetch,
    errors: { api: KeelWebApiError, response: KeelWebResponseError },
  };
}
