import fc from 'fast-check';
import { type JsonSchema, type OpenApiDocument, operationsOf } from './openapi.ts';
import { type FuzzRequest, type KnownValues, requestsFor, serviceNasties } from './requests.ts';
import { breach, send } from './send.ts';

export interface FuzzOptions {
  /** The service's address, e.g. `http://127.0.0.1:4100`. */
  base: string;
  openapi: OpenApiDocument;
  /** How many requests in all (spread evenly over the operations, plus the hand-written ones). */
  requests: number;
  seed: number;
  known?: KnownValues;
  /** Headers sent with every request (a token, say). */
  headers?: Record<string, string>;
  /**
   * Request body schemas by `METHOD /path`, for operations whose published schema is looser than what the
   * handler checks (so generated bodies reach the handler's own validation and beyond).
   */
  bodies?: Record<string, JsonSchema>;
  /** Operations left out, as `METHOD /path` (ones that would stop the service under test, say). */
  skip?: string[];
  /** Error codes the spec answers with a 5xx (TOOL_ERROR is 500 by the spec); any other 5xx fails. */
  specified5xx?: string[];
  concurrency?: number;
  timeoutMs?: number;
}

export interface FuzzFailure {
  label: string;
  request: { method: string; path: string; headers: Record<string, string>; body?: string };
  status: number;
  body: string;
  reason: string;
}

export interface FuzzReport {
  sent: number;
  byStatus: Record<number, number>;
  failures: FuzzFailure[];
}

/** Failures grouped by operation and reason, one example each: what a CI log should show. */
export function failureSummary(report: FuzzReport): string {
  const groups = new Map<string, { count: number; example: FuzzFailure }>();
  for (const failure of report.failures) {
    const key = `${failure.label} -> ${failure.reason}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { count: 1, example: failure });
    else group.count++;
  }
  return [...groups.entries()]
    .map(
      ([key, { count, example }]) =>
        `${count} x ${key}\n  e.g. ${JSON.stringify(example.request)}\n  -> ${example.body.slice(0, 200)}`,
    )
    .join('\n');
}

function describe(request: FuzzRequest): FuzzFailure['request'] {
  const body =
    request.body === undefined
      ? undefined
      : typeof request.body === 'string'
        ? request.body
        : `<${request.body.length} bytes>`;
  return {
    method: request.method,
    path: request.path.slice(0, 300),
    headers: request.headers,
    ...(body === undefined ? {} : { body: body.slice(0, 300) }),
  };
}

/** The same requests for the same seed and document: a failure found in CI replays on any machine. */
export function fuzzRequests(
  options: Pick<FuzzOptions, 'openapi' | 'requests' | 'seed' | 'known' | 'skip' | 'bodies'>,
): FuzzRequest[] {
  const skip = new Set(options.skip ?? []);
  const operations = operationsOf(options.openapi)
    .filter((op) => !skip.has(`${op.method} ${op.path}`))
    .map((op) => {
      const body = options.bodies?.[`${op.method} ${op.path}`];
      return body === undefined ? op : { ...op, body };
    });
  const nasties = serviceNasties();
  const each = Math.max(1, Math.ceil((options.requests - nasties.length) / Math.max(1, operations.length)));
  const perOperation = operations.map((operation, index) =>
    fc.sample(requestsFor(operation, options.known ?? {}), { seed: options.seed + index, numRuns: each }),
  );
  // Round robin over the operations, deletions last: the known records stay for most of the run.
  const interleaved = Array.from({ length: each }, (_, round) =>
    perOperation.map((requests) => requests[round]),
  )
    .flat()
    .filter((request): request is FuzzRequest => request !== undefined);
  const deletions = interleaved.filter((request) => request.method === 'DELETE');
  return [...nasties, ...interleaved.filter((request) => request.method !== 'DELETE'), ...deletions];
}

/**
 * Sends `requests` generated requests to a running service and reports every answer that is a 5xx, is
 * not in the `{"error": {"code", "message"}}` shape, or does not come at all.
 */
export async function fuzzService(options: FuzzOptions): Promise<FuzzReport> {
  const requests = fuzzRequests(options);
  const report: FuzzReport = { sent: 0, byStatus: {}, failures: [] };
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++] as FuzzRequest;
      const withHeaders = { ...request, headers: { ...options.headers, ...request.headers } };
      const response = await send(options.base, withHeaders, options.timeoutMs ?? 10_000);
      report.sent++;
      report.byStatus[response.status] = (report.byStatus[response.status] ?? 0) + 1;
      const reason = breach(response, options.specified5xx);
      if (reason !== undefined) {
        report.failures.push({
          label: request.label,
          request: describe(request),
          status: response.status,
          body: response.body.slice(0, 500),
          reason,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
  return report;
}
