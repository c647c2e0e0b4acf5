import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';

/** Tracking updates pushed by carriers; authenticated by the configuration's push token, not a merchant token. */
export const carrierHookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/carrier-hooks/:carrier_id/',
    {
      schema: {
        tags: ['Carrier push'],
        summary: 'Receive tracking updates a carrier pushes (Authorization: Bearer <push token>)',
        params: Type.Object({ carrier_id: Type.String({ minLength: 6, maxLength: 6 }) }),
        response: {
          200: Type.Object({ api_response: Type.String(), data: Type.Object({ updates: Type.Integer(), shipments: Type.Integer() }) }),
          400: Type.Ref('ErrorEnvelope'),
          403: Type.Ref('ErrorEnvelope'),
        },
      },
    },
    async (request) => {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
      const data = await app.context.carrierPush.receive(request.params.carrier_id, match?.[1] ?? null, request.body);
      return { api_response: '200', data };
    },
  );
};
