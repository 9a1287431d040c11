import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export interface ApiDocsOptions {
  title: string;
  /** The API's version as the document states it. */
  version: string;
  description: string;
}

/**
 * The OpenAPI document, collected from the routes' zod schemas as they register (so: before the routes),
 * served at `/docs/json` with Swagger UI at `/docs`; every route needs a bearer key when one is configured.
 */
export async function installApiDocs(app: FastifyInstance, options: ApiDocsOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: options.title, version: options.version, description: options.description },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}
