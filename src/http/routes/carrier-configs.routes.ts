import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { CarrierConfigView } from '../../domain/carrier-configs.service.js';
import { CarrierConfig } from '../../schemas/admin.schemas.js';
import { bearerSecurity, Envelope, merchantErrors } from '../../schemas/common.js';
import { callerOf } from '../auth.js';

export const carrierConfigRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // A kept list is one frozen array until it changes: its answer is serialized once.
  const answers = new WeakMap<readonly CarrierConfigView[], string>();
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
    (request, reply) => {
      const { accountId } = callerOf(request);
      // Answered at once when the account's list is kept in memory, without a promise (CarrierConfigsService.list).
      const kept = app.context.carrierConfigs.keptList(accountId);
      if (kept) {
        let json = answers.get(kept);
        if (json === undefined) {
          json = reply.serialize({ api_response: '200', data: kept }) as string;
          answers.set(kept, json);
        }
        reply.type('application/json; charset=utf-8').send(json);
        return;
      }
      return app.context.carrierConfigs.list(accountId).then((data) => ({ api_response: '200' as const, data }));
    },
  );
};
