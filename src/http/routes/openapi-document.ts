/** GET /openapi.json (public): the OpenAPI 3.1 document of this API. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { publicErrors } from '../schemas/common.js';

const OpenApiDocument = Type.Object(
  { openapi: Type.String({ description: 'the OpenAPI version, 3.1.0' }) },
  // The rest is passed through as it is: a property-by-property schema would drop what it does not name.
  { additionalProperties: true, description: 'this document' },
);

/** Serves the document @fastify/swagger built from the route schemas (it is built once, then kept). */
export const openApiDocumentRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/openapi.json', { schema: { tags: ['metadata'], response: { 200: OpenApiDocument, ...publicErrors() } } }, async () =>
    // Always a 3.1 document (see plugins/openapi.ts); the plugin's type also allows Swagger 2.0.
    app.swagger() as { openapi: string },
  );
};
