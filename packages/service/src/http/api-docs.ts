import { STATUS_CODES } from 'node:http';
import swagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';
import type { $ZodRegistry, $ZodType } from 'zod/v4/core';
import { type OpenApiDocument, tidyComponents } from './openapi-components.ts';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The status of the route's success answer when it is not 200: the document lists the `2xx` response of
     * `responses()` under it (a 204 without a body). For the document only: the handler still sends it.
     */
    successStatus?: 201 | 202 | 204;
  }
}

/** The names a wire gives its schemas, e.g. `workbenchComponents` of `@keel/protocol/workbench`. */
export type ComponentNames = $ZodRegistry<{ id: string }>;

export interface ApiDocsOptions {
  title: string;
  /** The API's version as the document states it. */
  version: string;
  description: string;
  /**
   * The wire's records and request bodies by name: a route schema found here is a `$ref` to
   * `components.schemas`, so generated clients get named types instead of anonymous ones.
   */
  components?: ComponentNames;
  /** The tags the routes use, each with a description of its group of endpoints. */
  tags?: { name: string; description: string }[];
  /**
   * Message schemas of the service's WebSocket routes, by name: the document lists them under
   * `components.schemas` (OpenAPI has no words for a socket's messages), and `description` should say where.
   */
  messages?: Record<string, ZodType>;
}

/**
 * The OpenAPI document, collected from the routes' zod schemas as they register (so: before the routes),
 * served at `/docs/json` with Swagger UI at `/docs`; every route needs a bearer key when one is configured.
 * Each operation's success is listed under the status it answers, and every named schema is a component.
 */
export async function installApiDocs(app: FastifyInstance, options: ApiDocsOptions): Promise<void> {
  const messages = options.messages ?? {};
  const registry = documentRegistry(options.components, messages);
  await app.register(swagger, {
    openapi: {
      info: { title: options.title, version: options.version, description: options.description },
      // Relative: the service answers on whatever address the client reached it by.
      servers: [{ url: '/', description: 'This service' }],
      tags: options.tags ?? [],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: documentRoute(registry),
    transformObject: documentObject(registry, Object.keys(messages)),
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}

type Metadata = { id?: string; description?: string };

/**
 * One registry for the document: the wire's names and the messages' as ids, and every other schema's
 * metadata (`.describe()`) from zod's global registry, which a registry of its own would not see. Zod has no
 * public way to chain registries: `_map` is what fastify-type-provider-zod chains too.
 */
function documentRegistry(names: ComponentNames | undefined, messages: Record<string, ZodType>) {
  const registry = z.registry<Metadata>();
  registry._map = new WithGlobalMetadata();
  const add = (schema: $ZodType, id: string) => registry.add(schema, { ...z.globalRegistry.get(schema), id });
  names?._idmap.forEach(add);
  for (const [id, schema] of Object.entries(messages)) add(schema, id);
  return registry;
}

/** A metadata map that falls back to zod's global registry for the schemas it was not given. */
class WithGlobalMetadata extends WeakMap<$ZodType, Metadata> {
  override get(schema: $ZodType): Metadata | undefined {
    return super.get(schema) ?? z.globalRegistry._map.get(schema);
  }

  override has(schema: $ZodType): boolean {
    return super.has(schema) || z.globalRegistry._map.has(schema);
  }
}

type JsonObject = Record<string, unknown>;

/** A route's schemas as JSON Schema, its `2xx` under the status it answers, each response described. */
function documentRoute(registry: $ZodRegistry<Metadata>): SwaggerTransform {
  const toJson = createJsonSchemaTransform({ schemaRegistry: registry });
  return (route) => {
    const documented = toJson(route);
    const response = documented.schema.response as Record<string, JsonObject> | undefined;
    if (response) {
      documented.schema.response = exactStatuses(response, route.schema.successStatus ?? 200);
    }
    return documented;
  };
}

function exactStatuses(response: Record<string, JsonObject>, success: number): Record<string, JsonObject> {
  return Object.fromEntries(
    Object.entries(response).map(([key, schema]) => {
      const status = key === '2xx' ? String(success) : key;
      const description = (schema.description as string | undefined) ?? STATUS_CODES[status] ?? status;
      // A 204 has no body (`null` is how @fastify/swagger hears "no content").
      if (status === '204') return [status, { type: 'null', description }];
      // @fastify/swagger drops the siblings of a `$ref` before it reads `x-response-description`.
      const field = '$ref' in schema ? 'description' : 'x-response-description';
      return [status, { ...schema, [field]: description }];
    }),
  );
}

/** The named schemas added as components, each under one name, and only those the document uses. */
function documentObject(registry: $ZodRegistry<Metadata>, messages: string[]): SwaggerTransformObject {
  const addComponents = createJsonSchemaTransformObject({ schemaRegistry: registry });
  return (input) => {
    const document = addComponents(input) as OpenApiDocument;
    tidyComponents(document, messages);
    return document as ReturnType<SwaggerTransformObject>;
  };
}
