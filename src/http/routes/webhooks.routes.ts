import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { bearerSecurity, Envelope, merchantErrors } from '../../schemas/common.js';
import { ResendBody } from '../../schemas/webhooks.schemas.js';
import { callerOf } from '../auth.js';
import { webhookManagementRoutes } from './webhook-management.js';

/** Webhooks for merchants: endpoints under /v5/webhooks/ (an extension), and the vendor's failed-delivery calls. */
export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.context.webhookEndpoints;
  const errors = { ...merchantErrors, 404: Type.Ref('ErrorEnvelope') };
  webhookManagementRoutes(app, {
    base: '/v5/webhooks/',
    params: Type.Object({}),
    accountOf: async (request) => callerOf(request).accountId,
    wrap: (schema) => Envelope(schema),
    envelope: (data) => ({ api_response: '200', data }),
    schema: { tags: ['Webhooks'], security: bearerSecurity },
    errors,
    service,
  });

  app.get(
    '/v5/notification/failed-webhook-count/',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'How many webhook deliveries failed for good (after every retry)',
        security: bearerSecurity,
        querystring: Type.Object({ webhook_uuid: Type.Optional(Type.String({ format: 'uuid' })) }, { additionalProperties: false }),
        response: { 200: Envelope(Type.Object({ count: Type.Integer() })), ...errors },
      },
    },
    async (request) => ({
      api_response: '200',
      data: { count: await service.failedCount(callerOf(request).accountId, request.query.webhook_uuid) },
    }),
  );

  app.post(
    '/v5/notification/resend-failed-webhooks/',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Send failed deliveries again, with their original event ids',
        security: bearerSecurity,
        body: Type.Optional(ResendBody),
        response: { 200: Envelope(Type.Object({ resent: Type.Integer() })), ...errors },
      },
      // The body is optional: a POST without one (no Content-Type, nothing sent) means "every endpoint".
      preValidation: (request, _reply, done) => {
        if (request.body === undefined && request.headers['content-type'] === undefined) request.body = {};
        done();
      },
    },
    async (request) => {
      const { webhook_uuid, since } = request.body;
      const resent = await service.resendFailed(callerOf(request).accountId, { webhookUuid: webhook_uuid, since });
      app.context.worker.nudge();
      return { api_response: '200', data: { resent } };
    },
  );
};
