import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { trackingPageRoutes } from './tracking-page.routes.js';

const refused = (reply: FastifyReply, verdict: 'invalid' | 'expired' | 'missing') =>
  verdict === 'missing'
    ? reply.code(404).send({ api_response: '4041', message: 'No file behind this link' })
    : reply.code(403).send({ api_response: 403, message: verdict === 'expired' ? 'This link has expired' : 'This link is not valid' });

/** Public links: signed downloads and tracking pages. The signature or the random reference is the authority, so no bearer token is needed. */
export const fileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(trackingPageRoutes);
  const signedQuery = Type.Object({
    expires: Type.Optional(Type.String({ maxLength: 20 })),
    signature: Type.Optional(Type.String({ maxLength: 100 })),
  });

  app.get(
    '/files/documents/:document_uuid/',
    { schema: { hide: true, params: Type.Object({ document_uuid: Type.String({ format: 'uuid' }) }), querystring: signedQuery } },
    async (request, reply) => {
      const result = await app.context.documents.download(request.params.document_uuid, request.query);
      if (typeof result === 'string') return refused(reply, result);
      reply.header('content-disposition', `attachment; filename="${result.fileName}"`).header('cache-control', 'private, max-age=300');
      return reply.type(result.contentType).send(Buffer.from(result.bytes));
    },
  );

  app.get(
    '/files/pod/:shipment_uuid/',
    { schema: { hide: true, params: Type.Object({ shipment_uuid: Type.String({ format: 'uuid' }) }), querystring: signedQuery } },
    async (request, reply) => {
      const result = await app.context.proofOfDelivery.download(request.params.shipment_uuid, request.query);
      if (typeof result === 'string') return refused(reply, result);
      reply.header('cache-control', 'private, max-age=300');
      return reply.type(result.contentType).send(Buffer.from(result.bytes));
    },
  );
};
