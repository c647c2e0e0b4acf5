import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { languageOf } from '../../domain/notifications/message-composer.js';
import { DEFAULT_LANGUAGE, languageOfAcceptLanguage } from '../../i18n/languages.js';
import { PAGE_SECURITY_HEADERS } from '../pages/page-layout.js';
import { renderUnsubscribeDone, renderUnsubscribeInvalid, renderUnsubscribePage } from '../pages/unsubscribe.html.js';

/** The page's form posts to itself: the public pages' policy with that one allowance. */
const UNSUBSCRIBE_HEADERS = {
  ...PAGE_SECURITY_HEADERS,
  'content-security-policy': PAGE_SECURITY_HEADERS['content-security-policy'].replace("form-action 'none'", "form-action 'self'"),
};

const TokenParams = Type.Object({ token: Type.String({ maxLength: 200 }) });
const ProviderParams = Type.Object({ provider: Type.String({ maxLength: 20 }), account_uuid: Type.String({ format: 'uuid' }) });

/**
 * What consumers and SMS providers call without a merchant token: the unsubscribe link of every e-mail
 * (a page, and the one-click POST of RFC 8058 that mailbox providers send), and the provider's inbound
 * messages (STOP) and delivery reports, checked by the provider's signature.
 */
export const notificationLinkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(formbody, { bodyLimit: 16_384 });
  const service = app.context.notifications;
  const key = app.context.secrets.urlKey;

  app.get('/notifications/unsubscribe/:token', { schema: { hide: true, params: TokenParams } }, async (request, reply) => {
    reply.headers(UNSUBSCRIBE_HEADERS).type('text/html; charset=utf-8');
    const target = await service.unsubscribeTarget(request.params.token, key);
    if (!target) return reply.code(404).send(renderUnsubscribeInvalid(acceptLanguage(request.headers['accept-language'])));
    return reply.send(renderUnsubscribePage(languageOf(target.row.language), target.merchant, request.url));
  });

  app.post<{ Params: { token: string }; Body: Record<string, unknown> | undefined }>(
    '/notifications/unsubscribe/:token',
    { schema: { hide: true } },
    async (request, reply) => {
      reply.headers(UNSUBSCRIBE_HEADERS).type('text/html; charset=utf-8');
      const target = await service.unsubscribeTarget(String(request.params.token).slice(0, 200), key);
      if (!target) return reply.code(404).send(renderUnsubscribeInvalid(acceptLanguage(request.headers['accept-language'])));
      // The one-click POST (List-Unsubscribe=One-Click) stops this shipment's messages; the page may choose the merchant's.
      const scope = request.body?.scope === 'merchant' ? 'merchant' : 'shipment';
      await service.unsubscribe(target.row, scope);
      return reply.send(renderUnsubscribeDone(languageOf(target.row.language), target.merchant));
    },
  );

  const inbound = async (
    kind: 'inbound' | 'status',
    params: { provider: string; account_uuid: string },
    url: string,
    headers: Record<string, string | string[] | undefined>,
    body: unknown,
  ) => {
    return app.context.smsHooks.receive(kind, params.provider, params.account_uuid, {
      url: `${app.context.config.publicUrl}${url}`,
      headers,
      params: formOf(body),
    });
  };

  for (const kind of ['inbound', 'status'] as const) {
    app.post<{ Params: { provider: string; account_uuid: string }; Body: Record<string, unknown> | undefined }>(
      `/notifications/sms/:provider/:account_uuid/${kind}`,
      {
        schema: {
          tags: ['Notifications'],
          summary:
            kind === 'inbound'
              ? "An SMS provider's inbound messages (STOP, START), checked by the provider's signature"
              : "An SMS provider's delivery reports, checked by the provider's signature",
          params: ProviderParams,
        },
      },
      async (request, reply) => {
        const accepted = await inbound(kind, request.params, request.url, request.headers, request.body);
        if (!accepted) return reply.code(403).send({ api_response: 403, message: 'Key not authorized' });
        // Twilio reads an empty TwiML answer as "no reply".
        return reply.type('text/xml').send('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
      },
    );
  }
};

/**
 * A provider's callback as the flat name → text map its signature covers (a form, or a flat JSON object). Anything
 * else a caller may send (an array, nested objects, null) carries no parameter: the signature check then refuses it.
 */
function formOf(body: unknown): Record<string, string> {
  const form: Record<string, string> = {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return form;
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') form[name] = String(value);
  }
  return form;
}

function acceptLanguage(header: string | undefined) {
  return languageOfAcceptLanguage(header) ?? DEFAULT_LANGUAGE;
}
