import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';

export interface ApiDocsOptions {
  title: string;
  /** The API's version as the document states it. */
  version: string;
  description: string;
  /**
   * Message schemas of the service's WebSocket routes, by name: the document lists them under
   * `components.schemas` (OpenAPI has no words for a socket's messages), and `description` should say where.
   */
  messages?: Record<string, ZodType>;
}

/**
 * The OpenAPI document, collected from the routes' zod schemas as they register (so: before the routes),
 * served at `/docs/json` with Swagger UI at `/docs`; every route needs a bearer key when one is configured.
 */
export async function installApiDocs(app: FastifyInstance, options: ApiDocsOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: options.title, version: options.version, description: options.description },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        schemas: Object.fromEntries(
          Object.entries(options.messages ?? {}).map(([name, schema]) => [
            name,
            z.toJSONSchema(schema, { target: 'openapi-3.0', unrepresentable: 'any' }) as Record<
              string,
              unknown
            >,
          ]),
        ),
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}
