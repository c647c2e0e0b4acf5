import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { bearerSecurity, Envelope, merchantErrors, Nullable } from '../../schemas/common.js';
import {
  ShipmentCreateBody,
  ShipmentIdentifierQuery,
  ShipmentListQuery,
  ShipmentUpdateBodyV5,
  ShipmentUpdateBodyV52,
} from '../../schemas/shipment-input.schemas.js';
import { ShipmentCreated, ShipmentV5, ShipmentV52 } from '../../schemas/shipment-output.schemas.js';
import { callerOf } from '../auth.js';
import { sendShipment, sendShipmentPage } from '../shipment-reply.js';

const tags = ['Shipments'];
const errors = { ...merchantErrors, 404: Type.Ref('ErrorEnvelope') };

export const shipmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { shipments, shipmentReader } = app.context;

  app.post(
    '/v5/shipment/',
    {
      schema: {
        tags,
        summary: 'Create a shipment',
        security: bearerSecurity,
        body: ShipmentCreateBody,
        response: { 200: Envelope(ShipmentCreated), ...errors },
      },
    },
    async (request) => ({ api_response: '200', data: await shipments.create(callerOf(request), request.body) }),
  );

  for (const [prefix, version, shape] of [
    ['/v5', 'v5', ShipmentV5],
    ['/v5-2-0', 'v5.2', ShipmentV52],
  ] as const) {
    app.get(
      `${prefix}/shipment/details/`,
      {
        schema: {
          tags,
          summary: `Shipment details (${version} shape)`,
          security: bearerSecurity,
          querystring: ShipmentIdentifierQuery,
          response: { 200: Envelope(shape), ...errors },
        },
      },
      async (request, reply) => {
        // Rendered from the response schema by the reader (and kept there), so sent as JSON text.
        const shipment = await shipmentReader.details(callerOf(request), request.query, version);
        return sendShipment(reply, shipment);
      },
    );

    app.post(
      `${prefix}/shipment/update/`,
      {
        schema: {
          tags,
          summary: `Update a shipment (answers in the ${version} shape)`,
          security: bearerSecurity,
          querystring: ShipmentIdentifierQuery,
          body: version === 'v5' ? ShipmentUpdateBodyV5 : ShipmentUpdateBodyV52,
          response: { 200: Envelope(shape), ...errors },
        },
      },
      async (request, reply) => {
        const updated = await shipments.update(callerOf(request), request.query, request.body);
        const { row, version: at, unchangedEventsAt, body } = updated;
        return sendShipment(reply, await shipmentReader.render(row, version, { at, unchangedEventsAt, body }));
      },
    );
  }

  app.post(
    '/v5/shipment/trigger-adhoc-update/',
    {
      schema: {
        tags,
        summary: 'Poll the carrier for this shipment now',
        security: bearerSecurity,
        body: Type.Object(
          {
            shipment_uuid: Type.Optional(Type.String({ format: 'uuid' })),
            shipment_id: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Envelope(Type.Object({ shipment_uuid: Type.String(), shipment_id: Type.String(), next_poll_date: Type.String() })),
          ...errors,
        },
      },
    },
    async (request) => {
      const data = await shipments.triggerUpdate(callerOf(request), request.body);
      app.context.worker.nudge();
      return { api_response: '200', data };
    },
  );

  app.get(
    '/v5/shipment/list/',
    {
      schema: {
        tags,
        summary: 'List shipments, newest first, with filters and keyset pagination',
        security: bearerSecurity,
        querystring: ShipmentListQuery,
        response: {
          200: Type.Object({ api_response: Type.String(), data: Type.Array(ShipmentV5), next_page: Nullable(Type.String()) }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const page = await shipmentReader.list(callerOf(request), request.query);
      return sendShipmentPage(reply, page);
    },
  );
};
