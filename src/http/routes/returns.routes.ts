import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { bearerSecurity, Envelope, merchantErrors } from '../../schemas/common.js';
import { ReturnCreateBody, ReturnCreated, ReturnTicketFull, ReturnUpdateBody } from '../../schemas/returns.schemas.js';
import { callerOf, requireFeature } from '../auth.js';

const tags = ['Returns'];

export const returnRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { returns } = app.context;
  const returnsOnly = requireFeature('returns');

  app.post(
    '/v5/return/',
    {
      onRequest: returnsOnly,
      schema: {
        tags,
        summary: 'Create a return ticket and its return shipment',
        description:
          'Standard flow: `return_ticket` and `shipment` (with at least one line item; no tracking data). Preprinted-label flow ' +
          '(account setting): `shipment` only, with `tracking_number` and `carrier_reference` unless the booking feature is used. ' +
          'Identical requests within 30 minutes return the first response and create nothing.',
        security: bearerSecurity,
        body: ReturnCreateBody,
        response: {
          200: Type.Object({
            api_response: Type.String(),
            warnings: Type.Optional(
              Type.Record(Type.String(), Type.Unknown(), { description: 'Things to know, keyed like validation errors' }),
            ),
            data: ReturnCreated,
          }),
          ...merchantErrors,
        },
      },
    },
    async (request, reply) => {
      const result = await returns.create(callerOf(request), request.body);
      if (result.replayed) reply.header('x-waybill-replayed', 'true');
      const { warnings, ...data } = result.result;
      return reply.code(200).send(warnings ? { api_response: '200', warnings, data } : { api_response: '200', data });
    },
  );

  app.post(
    '/v5/return/update/',
    {
      onRequest: returnsOnly,
      schema: {
        tags,
        summary: "Change a return ticket's state and fields, or record its refund",
        description:
          'State changes follow the transition table; a value replaces a field, `null` clears it. `refund_issued: true` (with ' +
          'an optional `refunded_amount`) records that the refund was issued, once, for an approved, carrier booking pending, ' +
          'shipping, completed or inactive return; the answer shows `refund_issued_at` and `refunded_amount`. A refunded return ' +
          'cannot be cancelled. Refused changes are a 4030 naming the field, and change nothing.',
        security: bearerSecurity,
        body: ReturnUpdateBody,
        response: { 200: Envelope(ReturnTicketFull), ...merchantErrors, 404: Type.Ref('ErrorEnvelope') },
      },
    },
    async (request) => ({ api_response: '200', data: await returns.update(callerOf(request), request.body) }),
  );
};
