import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotFoundError } from '../../domain/errors.js';
import { renderDeliveryLog, renderWebhookList } from '../pages/console/webhooks.html.js';
import { sendHtml, sessionOf } from './console-session.js';
import { UUID_PATTERN } from './form-input.js';

/** Webhooks: the account's endpoints and each one's delivery log (the service behind `/v5/webhooks/`). */
export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.context.webhookEndpoints;

  app.get('/webhooks/', async (request, reply) => {
    const session = sessionOf(request);
    const endpoints = await service.list(session.caller.accountId);
    return sendHtml(reply, 200, renderWebhookList({ session: session.view, endpoints }));
  });

  app.get<{ Params: { webhook_uuid: string } }>('/webhooks/:webhook_uuid/', async (request, reply) => {
    const session = sessionOf(request);
    const { webhook_uuid } = request.params;
    if (!UUID_PATTERN.test(webhook_uuid)) throw new NotFoundError('No webhook matches the identifier');
    const endpoint = await service.get(session.caller.accountId, webhook_uuid);
    const attempts = await service.deliveryLog(session.caller.accountId, webhook_uuid);
    return sendHtml(reply, 200, renderDeliveryLog({ session: session.view, endpoint, attempts }));
  });
};
