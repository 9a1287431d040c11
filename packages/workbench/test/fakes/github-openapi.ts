// Validates what the GitHub fake answers against GitHub's published OpenAPI description
// (`@octokit/openapi`), so the fake cannot drift from the shapes the real API sends.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';

type Json = Record<string, unknown>;

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, Json> }>>;
  components: Json;
}

export interface SchemaViolation {
  method: string;
  path: string;
  status: number;
  errors: string[];
}

/** `validate(...)` answers null for a body GitHub could send, else the violations to report. */
export interface GitHubSchemaValidator {
  /** The documented path template (`/repos/{owner}/{repo}/pulls/{pull_number}`) a concrete path matches. */
  template(method: string, path: string): string | null;
  validate(method: string, template: string | null, status: number, body: unknown): SchemaViolation | null;
}

const documentId = 'github';
let shared: GitHubSchemaValidator | undefined;

/** One validator per process: parsing the 13 MB description takes about a second. */
export function githubSchemaValidator(): GitHubSchemaValidator {
  shared ??= createValidator(loadDocument());
  return shared;
}

// Only the plain description with $refs: the package's index.js would load every variant (~385 MB).
function loadDocument(): OpenApiDocument {
  const file = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
  return JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
}

function createValidator(doc: OpenApiDocument): GitHubSchemaValidator {
  // strict: false ignores OpenAPI's extra keywords (example, x-github, discriminator); nullable is Ajv 8's.
  const ajv = new Ajv({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: under nodenext its default import is the module, the plugin is `.default`.
  formats.default(ajv);
  ajv.addSchema(rewriteRefs({ components: doc.components }) as Json, documentId);
  const compiled = new Map<string, ValidateFunction>();
  const templates = Object.keys(doc.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    literal: template.replace(/\{[^}]+\}/g, '').length,
  }));

  function schemaFor(method: string, template: string | null, status: number): Json {
    const operation = template ? doc.paths[template]?.[method.toLowerCase()] : undefined;
    let response = operation?.responses?.[String(status)];
    if (typeof response?.$ref === 'string') {
      response = (doc.components.responses as Record<string, Json>)[response.$ref.split('/').pop() ?? ''];
    }
    const content = response?.content as Record<string, { schema?: Json }> | undefined;
    const schema = content?.['application/json']?.schema;
    if (schema) return rewriteRefs(schema) as Json;
    if (status >= 400) return { $ref: `${documentId}#/components/schemas/basic-error` };
    // A success the operation does not document is itself drift.
    return { not: {}, description: `no documented ${status} response for ${method} ${template}` };
  }

  return {
    template(method, path) {
      // The most specific template wins: `/pulls/{pull_number}/comments` over `/pulls/{pull_number}/{x}`.
      const matches = templates.filter(
        (entry) => entry.pattern.test(path) && doc.paths[entry.template]?.[method.toLowerCase()],
      );
      matches.sort((a, b) => b.literal - a.literal);
      return matches[0]?.template ?? null;
    },
    validate(method, template, status, body) {
      // Errors GitHub sends from every endpoint (401, an unknown path's 404) are the basic error.
      const key = `${method} ${template} ${status}`;
      let check = compiled.get(key);
      if (!check) {
        check = ajv.compile(schemaFor(method, template, status));
        compiled.set(key, check);
      }
      if (check(body)) return null;
      const errors = (check.errors ?? []).map(
        (error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
      );
      return { method, path: template ?? '(no documented path)', status, errors };
    },
  };
}

/**
 * `#/components/...` → `github#/components/...`, so every schema resolves against the one added document.
 * And a `nullable` enum gets `null` among its values: OpenAPI 3.0.3 read strictly lets the enum refuse
 * null, but GitHub means null (it sends `conclusion: null` for a running check, and Octokit's types say
 * `| null`); about half of GitHub's nullable enums list null themselves, the others rely on `nullable`.
 */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof item === 'string' && item.startsWith('#/')
        ? `${documentId}${item}`
        : rewriteRefs(item);
  }
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null))
    out.enum = [...out.enum, null];
  return out;
}
