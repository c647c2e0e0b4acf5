import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { bearerSecurity, Envelope, merchantErrors } from '../../schemas/common.js';
import { PudoLocationSchema, PudoQuerySchema } from '../../schemas/pudo.schemas.js';
import { callerOf } from '../auth.js';

export const pudoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v5/pudo-locations/',
    {
      schema: {
        tags: ['PUDO locations'],
        summary: 'Pick-up/drop-off locations near a point or a postal code, nearest first',
        security: bearerSecurity,
        querystring: PudoQuerySchema,
        description:
          'Carriers that answer searches themselves (DHL, UPS) are asked, and their answer is reused for an hour; a location found ' +
          'can be booked by its pudo_location_uuid for a week. HTTP 503 when the carrier does not answer.',
        response: { 200: Envelope(Type.Array(PudoLocationSchema)), ...merchantErrors, 503: Type.Ref('ErrorEnvelope') },
      },
    },
    async (request) => ({
      api_response: '200',
      data: await app.context.pudo.search(callerOf(request), request.query, app.context.carrierWaits.begin()),
    }),
  );
};
