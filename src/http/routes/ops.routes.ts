import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ping } from '../../db/connection.js';

/** Health, the OpenAPI document; none of these need a token. */
export const opsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/healthz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await ping(app.context.database);
      return { status: 'ok', database: app.context.database.dialect };
    } catch (error) {
      request.log.error({ err: error }, 'health check failed');
      return reply.code(503).send({ status: 'unavailable', database: app.context.database.dialect });
    }
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
};
