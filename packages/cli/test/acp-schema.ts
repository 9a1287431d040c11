// Checks every JSON-RPC message of an ACP conversation against the Agent Client Protocol's own JSON schema,
// as the SDK package publishes it (schema/v1): a message an editor's stricter parser (Zed's serde, a
// JetBrains or Neovim client) would reject fails the test that exchanged it, not a user's session.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv2020, type ErrorObject, type FormatDefinition, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import type { WireMessage } from './acp-client.ts';

type Side = WireMessage['from'];
type Kind = 'request' | 'response' | 'notification';

/** What one message on the wire was, and what is wrong with it. */
export interface MessageReport {
  /** Which message: `#3 client→agent request session/prompt (id 2)`. */
  label: string;
  method?: string;
  /** false: outside the stable schema (session/fork is in the unstable one only); undefined: an extension (`_...`). */
  stable?: boolean;
  violations: string[];
  /**
   * A client request that broke the schema and that the agent refused with this error code: a test of bad
   * input (its violations are here, not in `violations`). Only the client's: the agent's are never excused.
   */
  refused?: { code: unknown; violations: string[] };
}

/** Every violation of the conversation, one line each, naming the message it is in. */
export function schemaViolations(wire: readonly WireMessage[]): string[] {
  return conformanceOf(wire).flatMap(({ label, violations }) =>
    violations.map((line) => `${label}: ${line}`),
  );
}

/**
 * Each message checked in order: its JSON-RPC envelope, its method (known, sent the way the schema says),
 * its params, and a response's result or error against the method of the request it answers (matched by
 * id and direction). Validated against schema.unstable.json, a superset of the stable schema, so methods
 * Keel implements ahead of the stable protocol are checked too; `stable` says which ones those are.
 * A client request the agent refused with an error is bad input on purpose: its violations are `refused`.
 */
export function conformanceOf(wire: readonly WireMessage[]): MessageReport[] {
  const acp = acpSchema();
  // The requests each side sent and still waits on, by id: a response must answer one of the other side's.
  const waiting: Record<Side, Map<string, { method: string; index: number }>> = {
    agent: new Map(),
    client: new Map(),
  };
  // Client requests answered with an error, by the request's index: the error's code.
  const refusals = new Map<number, unknown>();
  const reports = wire.map(({ from, message }, index) => {
    const to: Side = from === 'agent' ? 'client' : 'agent';
    const violations: string[] = [];
    const body: Record<string, unknown> = isObject(message) ? message : {};
    if (!isObject(message)) violations.push('not a JSON-RPC object (ACP sends no batches)');
    else if (message.jsonrpc !== '2.0')
      violations.push(`jsonrpc must be "2.0" (got ${preview(message.jsonrpc)})`);

    const hasId = 'id' in body;
    const idKey = JSON.stringify(body.id);
    let kind: Kind | undefined;
    let method: string | undefined;
    if ('method' in body) {
      kind = hasId ? 'request' : 'notification';
      if (typeof body.method === 'string') method = body.method;
      else violations.push(`method must be a string (got ${preview(body.method)})`);
      if ('result' in body || 'error' in body) violations.push(`a ${kind} carries no result or error`);
      if (hasId) {
        violations.push(...acp.validate('RequestId', body.id, 'id'));
        if (waiting[from].has(idKey)) violations.push(`reuses id ${idKey} of a request still unanswered`);
        if (method) waiting[from].set(idKey, { method, index });
      }
      if (method) violations.push(...acp.checkCall(kind, method, from, to, body.params));
    } else if ('result' in body || 'error' in body) {
      kind = 'response';
      if ('result' in body && 'error' in body)
        violations.push('a response has a result or an error, not both');
      if (!hasId) violations.push('a response must carry the id of the request it answers');
      const request = waiting[to].get(idKey);
      waiting[to].delete(idKey);
      method = request?.method;
      if (request && to === 'client' && isObject(body.error)) refusals.set(request.index, body.error.code);
      // A null id answers a request that could not be read (parse error, invalid request): an error only.
      const unreadable = body.id === null && 'error' in body;
      if (hasId && method === undefined && !unreadable) {
        violations.push(`answers no request the ${to} is waiting on (id ${idKey})`);
      }
      if ('error' in body) violations.push(...acp.validate('Error', body.error, 'error'));
      else if (method) violations.push(...acp.checkResult(method, from, body.result));
    } else if (isObject(message)) {
      violations.push('neither a request or notification (method) nor a response (result or error)');
    }
    const id = hasId ? ` (id ${idKey})` : '';
    const label = `#${index} ${from}→${to} ${kind ?? 'message'}${method ? ` ${method}` : ''}${id}`;
    const report: MessageReport = { label, violations };
    if (method) Object.assign(report, { method, stable: acp.isStable(method) });
    return report;
  });
  for (const [index, code] of refusals) {
    const report = reports[index];
    if (!report?.violations.length) continue;
    report.refused = { code, violations: report.violations };
    report.violations = [];
  }
  return reports;
}

/** A method of the schema: the definition of its params or result, and which side handles it. */
interface MethodDefinition {
  definition: string;
  /** `x-side`: the side that receives the request or notification, and so sends the response. */
  handler: string;
}

type JsonObject = Record<string, unknown>;

interface AcpJsonSchema extends JsonObject {
  $defs: Record<string, JsonObject>;
}

const draft202012 = 'https://json-schema.org/draft/2020-12/schema';
const schemaId = 'acp-v1-unstable';
/** Enough of an ajv error list to see what failed; a oneOf miss lists every branch. */
const errorsShown = 12;

let shared: ReturnType<typeof createChecker> | undefined;

/** One checker per process: compiling the schema takes a moment. */
function acpSchema() {
  shared ??= createChecker();
  return shared;
}

function createChecker() {
  const unstable = loadSchema('schema.unstable.json');
  const methods = methodsOf(unstable);
  const stableMethods = new Set(
    [...methodsOf(loadSchema('schema.json')).keys()].map((key) => key.split(' ')[1]),
  );
  const ajv = new Ajv2020({
    allErrors: true,
    // Errors carry the schema object that failed: where it sits in the file is looked up (`pointers`).
    verbose: true,
    // The unions tag their branches (`discriminator`), so an unknown `sessionUpdate` is one clear error.
    discriminator: true,
    // The generated schema puts discriminators on unions without `type: object`, which strictTypes refuses.
    strictTypes: false,
  });
  // The generator's own annotations (x-method, x-side, x-deserialize-*): known keywords, not typos.
  ajv.addVocabulary(extensionKeywords(unstable));
  formats.default(ajv, ['uri']);
  for (const [name, format] of Object.entries(numberFormats)) ajv.addFormat(name, format);
  ajv.addSchema(unstable, schemaId);
  const pointers = pointersOf(unstable);
  const compiled = new Map<string, ValidateFunction>();

  /** The definition's errors for the value, each naming where in the value and in the schema. */
  function validate(definition: string, value: unknown, at: string): string[] {
    let check = compiled.get(definition);
    if (!check) {
      check = ajv.getSchema(`${schemaId}#/$defs/${definition}`);
      if (!check) throw new Error(`The ACP schema has no definition ${definition}.`);
      compiled.set(definition, check);
    }
    if (check(value)) return [];
    const errors = (check.errors ?? []).map((error) => describeError(error, at, definition, pointers));
    if (errors.length <= errorsShown) return errors;
    return [
      ...errors.slice(0, errorsShown),
      `${at}: ...and ${errors.length - errorsShown} more schema errors`,
    ];
  }

  return {
    validate,
    isStable: (method: string) => (method.startsWith('_') ? undefined : stableMethods.has(method)),

    /** A request's or notification's method, direction and params. */
    checkCall(kind: Kind, method: string, from: Side, to: Side, params: unknown): string[] {
      // JSON-RPC: params, when present, is structured; ACP's are objects.
      if (params !== undefined && params !== null && !isObject(params)) {
        return [`params must be an object (got ${preview(params)})`];
      }
      // Extension methods (`_vendor/...`) are free-form: ExtRequest and ExtNotification accept anything.
      if (method.startsWith('_')) return [];
      const known = methods.get(`${kind} ${method}`);
      if (!known) {
        const other = methods.has(`${kind === 'request' ? 'notification' : 'request'} ${method}`);
        return [
          other
            ? `${method} is an ACP ${kind === 'request' ? 'notification' : 'request'}, sent as a ${kind}`
            : `${method} is not an ACP ${kind} (in neither the stable nor the unstable schema); extensions start with _`,
        ];
      }
      if (known.handler !== to && known.handler !== 'protocol') {
        return [`${method} is handled by the ${known.handler} (x-side): the ${from} must not send it`];
      }
      // Omitted params read as none: only a method with required params objects.
      return validate(known.definition, params ?? {}, 'params');
    },

    /** A successful response's result, against the method of the request it answers. */
    checkResult(method: string, from: Side, result: unknown): string[] {
      if (method.startsWith('_')) return [];
      const known = methods.get(`response ${method}`);
      if (!known) return [];
      if (known.handler !== from && known.handler !== 'protocol') {
        return [`${method} is answered by the ${known.handler} (x-side), not the ${from}`];
      }
      return validate(known.definition, result, 'result');
    },
  };
}

/** The SDK's published schema file, found from the package's main entry (the schema dir need not be exported). */
function loadSchema(file: 'schema.json' | 'schema.unstable.json'): AcpJsonSchema {
  const path = join(sdkRoot(), 'schema', 'v1', file);
  const schema = JSON.parse(readFileSync(path, 'utf8')) as AcpJsonSchema;
  if (schema.$schema !== draft202012) {
    throw new Error(
      `${path} declares $schema ${String(schema.$schema)}: acp-schema.ts validates draft 2020-12 (Ajv2020); use the Ajv class for that draft.`,
    );
  }
  return schema;
}

function sdkRoot(): string {
  const name = '@agentclientprotocol/sdk';
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name
    ) {
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No package.json of ${name} above its main entry: is it installed?`);
    dir = parent;
  }
}

/** `request session/prompt` → PromptRequest, handled by the agent: from each definition's x-method and x-side. */
function methodsOf(schema: AcpJsonSchema): Map<string, MethodDefinition> {
  const methods = new Map<string, MethodDefinition>();
  for (const [definition, body] of Object.entries(schema.$defs)) {
    const method = body['x-method'];
    const handler = body['x-side'];
    const kind = (['Notification', 'Response', 'Request'] as const).find((suffix) =>
      definition.endsWith(suffix),
    );
    // The proxy methods (x-side proxy) are between proxies, never between an editor and an agent.
    if (typeof method !== 'string' || typeof handler !== 'string' || !kind || handler === 'proxy') continue;
    methods.set(`${kind.toLowerCase()} ${method}`, { definition, handler });
  }
  return methods;
}

/** Every `x-*` keyword the schema uses. */
function extensionKeywords(schema: unknown): string[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (isObject(node)) {
      for (const [key, value] of Object.entries(node)) {
        if (key.startsWith('x-')) found.add(key);
        walk(value);
      }
    }
  };
  walk(schema);
  return [...found];
}

/** The JSON pointer of every schema object, so an error names the definition it failed in. */
function pointersOf(schema: unknown): Map<object, string> {
  const pointers = new Map<object, string>();
  const walk = (node: unknown, pointer: string): void => {
    if (typeof node !== 'object' || node === null) return;
    pointers.set(node, pointer);
    for (const [key, value] of Object.entries(node)) walk(value, `${pointer}/${key}`);
  };
  walk(schema, '#');
  return pointers;
}

/** The numeric formats the Rust schema generator writes (ajv knows none of them): integer ranges, finite doubles. */
const numberFormats: Record<string, FormatDefinition<number>> = {
  int32: integerIn(-(2 ** 31), 2 ** 31 - 1),
  uint16: integerIn(0, 2 ** 16 - 1),
  uint32: integerIn(0, 2 ** 32 - 1),
  int64: integerIn(-(2 ** 63), 2 ** 63),
  uint64: integerIn(0, 2 ** 64),
  double: { type: 'number', validate: Number.isFinite },
};

function integerIn(min: number, max: number): FormatDefinition<number> {
  return { type: 'number', validate: (value) => Number.isInteger(value) && value >= min && value <= max };
}

function describeError(
  error: ErrorObject,
  at: string,
  definition: string,
  pointers: Map<object, string>,
): string {
  const where = pointers.get(error.parentSchema as object) ?? `#/$defs/${definition}`;
  const expected =
    error.keyword === 'const'
      ? ` ${preview(error.params.allowedValue)}`
      : error.keyword === 'enum'
        ? ` ${preview(error.params.allowedValues)}`
        : '';
  const got = error.keyword === 'required' ? '' : ` (got ${preview(error.data)})`;
  return `${at}${error.instancePath}: ${error.message}${expected}${got} [schema ${where}/${error.keyword}]`;
}

function preview(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
