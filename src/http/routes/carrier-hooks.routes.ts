import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';

/** Tracking updates pushed by carriers; authenticated by the configuration's push token, not a merchant token. */
export const carrierHookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/carrier-hooks/:carrier_id/',
    {
      config: { rawBody: true },
      schema: {
        tags: ['Carrier push'],
        summary:
          'Receive tracking updates a carrier pushes (the push token as Authorization: Bearer, or where the carrier sends it); acknowledged at once, applied by a job',
        params: Type.Object({ carrier_id: Type.String({ minLength: 6, maxLength: 6 }) }),
        response: {
          200: Type.Object({ api_response: Type.String(), data: Type.Object({ updates: Type.Integer(), queued: Type.Boolean() }) }),
          400: Type.Ref('ErrorEnvelope'),
          403: Type.Ref('ErrorEnvelope'),
        },
      },
    },
    async (request) => {
      const pushed = { headers: request.headers, rawBody: request.rawBody ?? Buffer.alloc(0) };
      const data = await app.context.carrierPush.receive(request.params.carrier_id, pushed, request.body);
      return { api_response: '200', data };
    },
  );
};
