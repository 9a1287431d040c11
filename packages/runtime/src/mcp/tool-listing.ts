import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';

type JsonSchema = Record<string, unknown>;

/** Longest tool description in the overview of every server; one server's listing shows them whole. */
const briefDescriptionChars = 160;

/**
 * The listing of one server's tools the model reads: a signature per tool, TypeScript-like, with `?` for
 * optional arguments and their defaults, then the description. `detail: 'full'` adds whole descriptions
 * and one line per described argument; `'brief'` keeps the first line of each description, for an
 * overview of every server.
 *
 * @example
 * // - get-sum(a: number, b: number): Returns the sum of two numbers
 * //     a: First number
 */
export function describeServerTools(
  header: string,
  tools: readonly McpTool[],
  detail: 'brief' | 'full',
): string {
  const count = `${tools.length} ${tools.length === 1 ? 'tool' : 'tools'}`;
  const lines = [`${header}: ${count}`];
  for (const tool of tools) lines.push(...describeTool(tool, detail));
  return lines.join('\n');
}

function describeTool(tool: McpTool, detail: 'brief' | 'full'): string[] {
  const schema = tool.inputSchema as JsonSchema;
  const properties = objectOf(schema.properties);
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const params = Object.entries(properties).map(([name, property]) => paramOf(name, property, required));
  const description = (tool.description ?? tool.title ?? '').trim();
  const text = detail === 'full' ? description : briefly(description);
  const lines = [`- ${tool.name}(${params.join(', ')})${text ? `: ${text}` : ''}`];
  if (detail === 'full') {
    for (const [name, property] of Object.entries(properties)) {
      const about = typeof property.description === 'string' ? property.description.trim() : '';
      if (about) lines.push(`    ${name}: ${about}`);
    }
  }
  return lines;
}

function paramOf(name: string, schema: JsonSchema, required: Set<string>): string {
  const optional = required.has(name) ? '' : '?';
  const fallback = schema.default === undefined ? '' : ` = ${JSON.stringify(schema.default)}`;
  return `${name}${optional}: ${typeOf(schema)}${fallback}`;
}

/** A JSON schema as a TypeScript-like type: what a model reads best in the fewest tokens. */
export function typeOf(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return union.map((member) => typeOf(objectOf(member))).join(' | ');
  if (Array.isArray(schema.type)) return schema.type.map((type) => typeOf({ ...schema, type })).join(' | ');
  switch (schema.type) {
    case 'array': {
      const item = typeOf(objectOf(schema.items));
      return item.includes(' ') ? `(${item})[]` : `${item}[]`;
    }
    case 'object': {
      const properties = Object.entries(objectOf(schema.properties));
      if (properties.length === 0) return 'object';
      const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
      return `{ ${properties.map(([name, property]) => paramOf(name, property, required)).join(', ')} }`;
    }
    case 'integer':
      return 'integer';
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
      return schema.type;
    default:
      return typeof schema.$ref === 'string' ? (schema.$ref.split('/').pop() ?? 'any') : 'any';
  }
}

function briefly(description: string): string {
  const first = description.split('\n')[0]?.trim() ?? '';
  return first.length > briefDescriptionChars ? `${first.slice(0, briefDescriptionChars - 1)}…` : first;
}

function objectOf(value: unknown): Record<string, JsonSchema> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, JsonSchema>)
    : {};
}
