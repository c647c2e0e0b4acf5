import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { BookingDocument } from '../../schemas/booking.schemas.js';
import { bearerSecurity, Envelope, merchantErrors } from '../../schemas/common.js';
import { ShipmentIdentifierQuery } from '../../schemas/shipment-input.schemas.js';
import { callerOf } from '../auth.js';

const tags = ['Documents'];
const errors = { ...merchantErrors, 404: Type.Ref('ErrorEnvelope') };
const { base64_content: _content, ...withoutContent } = BookingDocument.properties;
const DocumentWithUrl = Type.Object(withoutContent);

export const documentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { documents } = app.context;

  app.get(
    '/v5/shipments/documents/',
    {
      schema: {
        tags,
        summary: "A shipment's documents (signed download links, no content)",
        security: bearerSecurity,
        querystring: ShipmentIdentifierQuery,
        response: { 200: Envelope(Type.Array(DocumentWithUrl)), ...errors },
      },
    },
    async (request) => ({ api_response: '200', data: await documents.list(callerOf(request), request.query) }),
  );

  app.get(
    '/v5/shipments/documents/labels/',
    {
      schema: {
        tags,
        summary: "A shipment's labels (signed download links only)",
        security: bearerSecurity,
        querystring: ShipmentIdentifierQuery,
        response: { 200: Envelope(Type.Array(DocumentWithUrl)), ...errors },
      },
    },
    async (request) => ({ api_response: '200', data: await documents.list(callerOf(request), request.query, 'label') }),
  );

  app.get(
    '/v5/shipments/documents/:document_uuid/',
    {
      schema: {
        tags,
        summary: 'One document with its download link and Base64 content',
        security: bearerSecurity,
        params: Type.Object({ document_uuid: Type.String({ format: 'uuid' }) }),
        response: { 200: Envelope(BookingDocument), ...errors },
      },
    },
    async (request) => ({ api_response: '200', data: await documents.get(callerOf(request), request.params.document_uuid) }),
  );
};
