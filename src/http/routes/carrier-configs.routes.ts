import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CarrierConfig } from '../../schemas/admin.schemas.js';
import { bearerSecurity, Envelope, merchantErrors } from '../../schemas/common.js';
import { callerOf } from '../auth.js';

export const carrierConfigRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v5/carrier-configs/',
    {
      schema: {
        tags: ['Carrier configurations'],
        summary: "The account's carrier configurations",
        security: bearerSecurity,
        response: { 200: Envelope(Type.Array(CarrierConfig)), ...merchantErrors },
      },
    },
    async (request) => ({ api_response: '200', data: await app.context.carrierConfigs.list(callerOf(request).accountId) }),
  );
};
