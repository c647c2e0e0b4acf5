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
 * It speaks the reader's language (`?lang=`, the shipment's, the browser's, the recipient country's; see
 * pageLanguage).
 */
export const trackingPageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const pages = new TrackingPageService(app.context.repos, app.context.carriers);

  app.get<PageRequest>('/t/:reference', { schema: { hide: true } }, async (request, reply) => {
    const { reference } = request.params;
    const language = { lang: request.query.lang, acceptLanguage: request.headers['accept-language'] };
    reply.headers(PAGE_SECURITY_HEADERS).headers(TRACKING_PAGE_HEADERS).type('text/html; charset=utf-8');
    // The words may depend on the browser's languages.
    reply.header('vary', 'accept-language');
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000');
    const view = await pages.view(reference, language);
    if (!view) {
      const { messages } = pages.messages(language);
      return reply.code(404).header('content-language', messages.language).send(renderTrackingNotFound(messages));
    }
    return reply.header('content-language', view.language).send(renderTrackingPage(view));
  });
};
