import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Portal, PortalForm } from '../../domain/returns-portal/returns-portal.service.js';
import { pageLanguage } from '../../domain/tracking-page/tracking-page.service.js';
import type { Language } from '../../i18n/languages.js';
import type { CredentialBackoff } from '../credential-backoff.js';
import { renderChoosePage, renderFindPage, renderPortalNotFound, renderStatusPage } from '../pages/returns-portal.html.js';
import { type PortalFrame, portalHeaders } from '../pages/returns-portal-layout.js';

type PortalRequest = FastifyRequest<{
  Params: { reference: string; token?: string };
  Querystring: { lang?: string | string[]; label?: string };
  Body: unknown;
}>;

/** A posted form's text fields (a field sent twice counts once: its first value). */
function formOf(body: unknown): PortalForm {
  if (!body || typeof body !== 'object') return {};
  const form: Record<string, string> = {};
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    const text = Array.isArray(value) ? value[0] : value;
    if (typeof text === 'string') form[name] = text.slice(0, 4000);
  }
  return form;
}

/** What the portal's forms post: not in the API's document, and named to a client that sends another type. */
const FORM_POST = { hide: true, consumes: ['application/x-www-form-urlencoded'] };

/** The backoff keys of a find: the order from this address, anything from this address, the order from anywhere. */
function findKeys(portal: Portal, orderNumber: string, source: string): Array<[string, string]> {
  const order = orderNumber.trim().toLowerCase().slice(0, 60);
  return [
    [`returns-portal:${portal.reference}:${order}`, source],
    [`returns-portal:${portal.reference}`, source],
    [`returns-portal:${portal.reference}:${order}`, '*'],
  ];
}

/**
 * The consumer's returns portal: `/returns/{portal_reference}` finds an order, `/order/{token}` chooses what to
 * return, `/status/{token}` follows a return. Server-rendered pages without scripts, in the consumer's
 * language; finding is limited per order and per address (shared through Redis when configured), and an unknown
 * order and a wrong e-mail address or postal code get the same answer.
 */
export const returnsPortalRoutes: FastifyPluginAsync<{ backoff: CredentialBackoff }> = async (app, options) => {
  await app.register(formbody, { bodyLimit: 65_536 });
  const { context } = app;
  const portals = context.returnsPortal;

  function languageOf(request: PortalRequest): Language {
    const sent = formOf(request.body).lang;
    return pageLanguage({ lang: sent ?? request.query.lang, acceptLanguage: request.headers['accept-language'] });
  }

  function frameOf(request: PortalRequest, portal: Portal | null, path: string | null): PortalFrame {
    return {
      language: languageOf(request),
      shop: portal?.shopName ?? '',
      brand: portal?.policy.branding.primary_color ?? '#1f4e79',
      logoUrl: portal ? context.returnPolicies.logoSource(portal.reference, portal.policy) : null,
      base: portal ? `/returns/${portal.reference}` : '',
      path,
    };
  }

  function page(reply: FastifyReply, frame: PortalFrame, status: number, body: string) {
    reply.headers(portalHeaders(frame.brand, frame.logoUrl)).header('vary', 'accept-language');
    return reply.code(status).type('text/html; charset=utf-8').header('content-language', frame.language).send(body);
  }

  /** The portal of the request, or the not-found page sent. */
  async function portalOf(request: PortalRequest, reply: FastifyReply): Promise<Portal | null> {
    const portal = await portals.portal(request.params.reference);
    if (!portal) await page(reply, frameOf(request, null, null), 404, renderPortalNotFound(frameOf(request, null, null)));
    return portal;
  }

  const home = async (request: PortalRequest, reply: FastifyReply) => {
    const portal = await portalOf(request, reply);
    if (!portal) return reply;
    const frame = frameOf(request, portal, `/returns/${portal.reference}`);
    return page(reply, frame, 200, renderFindPage(frame, { order: '', contact: '', problem: null }));
  };
  app.get('/returns/:reference', { schema: { hide: true } }, home);
  app.get('/returns/:reference/', { schema: { hide: true } }, home);

  app.get('/returns/:reference/logo', { schema: { hide: true } }, async (request: PortalRequest, reply) => {
    const portal = await portals.portal(request.params.reference);
    const file = portal ? await context.returnPolicies.logoFile(portal.policy) : null;
    if (!file) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    return reply
      .headers({
        'x-content-type-options': 'nosniff',
        'cache-control': 'public, max-age=86400',
        'cross-origin-resource-policy': 'same-origin',
      })
      .header('content-security-policy', "default-src 'none'")
      .type(file.contentType)
      .send(Buffer.from(file.bytes));
  });

  app.post('/returns/:reference/find', { schema: FORM_POST }, async (request: PortalRequest, reply) => {
    const portal = await portalOf(request, reply);
    if (!portal) return reply;
    const frame = frameOf(request, portal, null);
    const form = formOf(request.body);
    const order = form.order ?? '';
    const contact = form.contact ?? '';
    if (order.trim() === '' || contact.trim() === '') {
      return page(reply, frame, 400, renderFindPage(frame, { order, contact, problem: 'required' }));
    }
    const keys = findKeys(portal, order, request.ip);
    const waits = await Promise.all(keys.map(([client, source]) => options.backoff.standing(client, source)));
    const waitSeconds = Math.max(...waits.map((standing) => standing.waitSeconds));
    if (waitSeconds > 0) {
      reply.header('retry-after', String(waitSeconds));
      return page(reply, frame, 429, renderFindPage(frame, { order, contact, problem: 'too_many_attempts', waitSeconds }));
    }
    const token = await portals.findOrder(portal, order, contact);
    if (!token) {
      await Promise.all(keys.map(([client, source]) => options.backoff.failed(client, source)));
      return page(reply, frame, 200, renderFindPage(frame, { order, contact, problem: 'not_found' }));
    }
    await options.backoff.succeeded(keys[0][0], keys[0][1]);
    return reply.code(303).header('location', `/returns/${portal.reference}/order/${token}?lang=${frame.language}`).send();
  });

  app.get('/returns/:reference/order/:token', { schema: { hide: true } }, async (request: PortalRequest, reply) => {
    const portal = await portalOf(request, reply);
    if (!portal) return reply;
    const order = await portals.order(portal, String(request.params.token));
    if (!order) {
      const frame = frameOf(request, portal, `/returns/${portal.reference}`);
      return page(reply, frame, 200, renderFindPage(frame, { order: '', contact: '', problem: 'expired' }));
    }
    const frame = frameOf(request, portal, `/returns/${portal.reference}/order/${order.token}`);
    return page(reply, frame, 200, renderChoosePage(frame, portal.policy, order));
  });

  app.post('/returns/:reference/order/:token', { schema: FORM_POST }, async (request: PortalRequest, reply) => {
    const portal = await portalOf(request, reply);
    if (!portal) return reply;
    const form = formOf(request.body);
    const outcome = await portals.submit(portal, String(request.params.token), form);
    const frame = frameOf(request, portal, null);
    if (outcome.kind === 'expired') return page(reply, frame, 200, renderFindPage(frame, { order: '', contact: '', problem: 'expired' }));
    if (outcome.kind === 'invalid')
      return page(reply, frame, 422, renderChoosePage(frame, portal.policy, outcome.order, outcome.errors, form));
    return reply.code(303).header('location', `/returns/${portal.reference}/status/${outcome.statusToken}?lang=${frame.language}`).send();
  });

  app.get('/returns/:reference/status/:token', { schema: { hide: true } }, async (request: PortalRequest, reply) => {
    const portal = await portalOf(request, reply);
    if (!portal) return reply;
    const token = String(request.params.token);
    const view = await portals.status(portal, token);
    if (!view) return page(reply, frameOf(request, portal, null), 404, renderPortalNotFound(frameOf(request, portal, null), true));
    const frame = frameOf(request, portal, `/returns/${portal.reference}/status/${token}`);
    return page(reply, frame, 200, renderStatusPage(frame, portal.policy, view, { labelFailed: request.query.label === 'failed' }));
  });

  app.post('/returns/:reference/status/:token/label', { schema: FORM_POST }, async (request: PortalRequest, reply) => {
    const portal = await portalOf(request, reply);
    if (!portal) return reply;
    const token = String(request.params.token);
    const booked = await portals.requestLabel(portal, token);
    const language = languageOf(request);
    return reply
      .code(303)
      .header('location', `/returns/${portal.reference}/status/${token}?lang=${language}${booked ? '' : '&label=failed'}`)
      .send();
  });
};
