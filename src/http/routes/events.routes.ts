import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { bearerSecurity, Envelope, merchantErrors } from '../../schemas/common.js';
import { EventsCreateBody, EventsCreated } from '../../schemas/events.schemas.js';
import { callerOf } from '../auth.js';

export const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v5/events/create/',
    {
      schema: {
        tags: ['Events'],
        summary: 'Add manual tracking events to a shipment',
        security: bearerSecurity,
        body: EventsCreateBody,
        response: { 200: Envelope(EventsCreated), ...merchantErrors, 404: Type.Ref('ErrorEnvelope') },
      },
    },
    async (request) => {
      const { body } = request;
      const data = await app.context.manualEvents.create(
        callerOf(request),
        { shipment_uuid: body.shipment_uuid, shipment_id: body.shipment_id },
        body.events,
      );
      return { api_response: '200', data };
    },
  );
};
