import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { TrackingPageService } from '../../domain/tracking-page/tracking-page.service.js';
import { PAGE_SECURITY_HEADERS } from '../pages/page-layout.js';
import { renderTrackingNotFound, renderTrackingPage } from '../pages/tracking-page.html.js';

/** Besides the page headers: no window of another origin keeps a handle on it, nothing else embeds its
 * responses, and it asks for no device feature. */
const TRACKING_PAGE_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
};

/** The page has no schema (it answers in HTML whatever it is asked): the path and query as Fastify parses them. */
type PageRequest = { Params: { reference: string }; Querystring: { lang?: string | string[] } };

/**
 * The public tracking page: `/t/{tracking_page_reference}`. The reference is a random token handed to
 * the recipient, so it is the authority: no bearer token, and nothing the recipient should not see.
 */
export const trackingPageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const pages = new TrackingPageService(app.context.repos, app.context.carriers);

  app.get<PageRequest>('/t/:reference', { schema: { hide: true } }, async (request, reply) => {
    const { reference } = request.params;
    const { lang } = request.query;
    reply.headers(PAGE_SECURITY_HEADERS).headers(TRACKING_PAGE_HEADERS).type('text/html; charset=utf-8');
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000');
    const view = await pages.view(reference, lang);
    if (!view) {
      const { language, messages } = pages.messages(lang);
      return reply.code(404).send(renderTrackingNotFound(language, messages));
    }
    return reply.send(renderTrackingPage(view));
  });
};
