import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DeliveryAnalyticsService } from '../../domain/delivery/delivery-analytics.service.js';
import { DomainError, NotFoundError, ValidationError } from '../../domain/errors.js';
import type { CredentialBackoff } from '../credential-backoff.js';
import { CONSOLE_CSS, CONSOLE_CSS_VERSION } from '../pages/console/console-styles.js';
import { renderMessagePage } from '../pages/console/message.html.js';
import type { RateLimiter } from '../rate-limit.js';
import { analyticsRoutes } from './analytics.routes.js';
import {
  clearCookie,
  csrfTokenFor,
  isCrossSite,
  readCookie,
  resolveSession,
  SESSION_COOKIE,
  sameToken,
  sendHtml,
  sessionOf,
} from './console-session.js';
import { errorLines, formFields } from './form-input.js';
import { notificationConsoleRoutes } from './notifications.routes.js';
import { returnPolicyConsoleRoutes } from './return-policy.routes.js';
import { returnRoutes } from './returns.routes.js';
import { shipmentRoutes } from './shipments.routes.js';
import { signInRoutes, signOutRoutes } from './sign-in.routes.js';
import { webhookRoutes } from './webhooks.routes.js';

/** Headers of every console response: no script, no framing, no sniffing, no referrer, nothing cached. */
export const CONSOLE_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-robots-tag': 'noindex, nofollow',
  'cache-control': 'no-store',
};

/**
 * The merchant console under `/console/`: server-rendered pages over the same domain services as the API,
 * for the account whose credentials signed in.
 */
export const consoleRoutes: FastifyPluginAsyncTypebox<{ limiter: RateLimiter; backoff: CredentialBackoff }> = async (app, options) => {
  await app.register(formbody, { bodyLimit: 16_384 });
  // Pages for people, not part of the API's published document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  app.decorateRequest('consoleSession', null);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(CONSOLE_SECURITY_HEADERS);
    done();
  });
  refuseCrossSiteWrites(app);
  app.setErrorHandler((error: FastifyError, request, reply) => renderError(app, error, request, reply));
  app.setNotFoundHandler((request, reply) =>
    sendHtml(
      reply,
      404,
      renderMessagePage({ title: 'Not found', text: 'There is no such page in the console.', session: request.consoleSession?.view }),
    ),
  );

  app.get(`/assets/console-${CONSOLE_CSS_VERSION}.css`, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=31536000, immutable').type('text/css; charset=utf-8').send(CONSOLE_CSS),
  );
  await app.register(signInRoutes, { limiter: options.limiter, backoff: options.backoff });
  await app.register(async (signedIn) => {
    requireSession(signedIn, options.limiter);
    signedIn.get('/', async (_request, reply) => reply.redirect('/console/shipments/', 303));
    await signedIn.register(signOutRoutes);
    await signedIn.register(shipmentRoutes);
    await signedIn.register(returnRoutes);
    await signedIn.register(returnPolicyConsoleRoutes);
    await signedIn.register(webhookRoutes);
    await signedIn.register(notificationConsoleRoutes);
    await signedIn.register(analyticsRoutes, { analytics: new DeliveryAnalyticsService(app.context.repos) });
  });
};

/**
 * Every request that changes something (sign-in included) is refused when the browser says it comes from
 * another site, before its form token is even read: `SameSite=Strict` and the form token stay, this is a
 * third guard that does not depend on either.
 */
function refuseCrossSiteWrites(app: FastifyInstance): void {
  const publicOrigin = new URL(app.context.config.publicUrl).origin;
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD' || !isCrossSite(request, publicOrigin)) return done();
    sendHtml(
      reply,
      403,
      renderMessagePage({ title: 'Form refused', text: 'This form was sent from another site. Open the console and try again there.' }),
    );
  });
}

/**
 * Every route of this scope needs the session cookie (a valid, unexpired token of live credentials, not
 * signed out; otherwise the sign-in page), counts against the account's rate limit like the API, and every
 * POST needs the session's form token.
 */
function requireSession(app: FastifyInstance, limiter: RateLimiter): void {
  const { secrets, config } = app.context;
  app.addHook('onRequest', async (request, reply) => {
    const sealed = readCookie(request, SESSION_COOKIE);
    const session = sealed ? await resolveSession(app.context, sealed) : null;
    if (!session) {
      if (sealed) reply.header('set-cookie', clearCookie(request, SESSION_COOKIE, '/console/'));
      return reply.redirect(`/console/sign-in/${sealed ? '?reason=expired' : ''}`, 303);
    }
    const { caller, token } = session;
    const view = { csrf: csrfTokenFor(secrets, token), clientId: caller.clientId };
    request.consoleSession = { caller, token, view };
    const decision = limiter.hitNow
      ? limiter.hitNow(`account:${caller.accountId}`, config.rateLimitPerSecond)
      : await limiter.hit(`account:${caller.accountId}`, config.rateLimitPerSecond);
    if (!decision.allowed) {
      reply.header('retry-after', decision.resetSeconds);
      return sendHtml(reply, 429, renderMessagePage({ title: 'Too many requests', text: 'Wait a moment, then reload.', session: view }));
    }
  });
  app.addHook('preHandler', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    const session = sessionOf(request);
    if (!sameToken(formFields(request.body).csrf, session.view.csrf)) {
      return sendHtml(
        reply,
        403,
        renderMessagePage({
          title: 'Form refused',
          text: 'This form did not come from your console session (or the session changed). Reload the page and try again.',
          session: session.view,
        }),
      );
    }
  });
}

function renderError(app: FastifyInstance, error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const session = request.consoleSession?.view ?? null;
  if (error instanceof NotFoundError) {
    return sendHtml(reply, 404, renderMessagePage({ title: 'Not found', text: error.message, session }));
  }
  if (error instanceof ValidationError) {
    return sendHtml(
      reply,
      400,
      renderMessagePage({ title: 'Not accepted', text: 'Check these fields:', details: errorLines(error.errors), session }),
    );
  }
  if (error instanceof DomainError) {
    const status = error.code === 'feature_not_enabled' ? 403 : error.code === 'conflict' ? 409 : error.code === 'unavailable' ? 503 : 400;
    return sendHtml(reply, status, renderMessagePage({ title: 'Not possible', text: error.message, session }));
  }
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status === 500) app.log.error({ err: error, url: request.url }, 'console request failed');
  return sendHtml(
    reply,
    status,
    renderMessagePage({
      title: status === 500 ? 'Something went wrong' : 'Request refused',
      text: status === 500 ? 'The console could not show this page. Try again in a moment.' : 'The request could not be read.',
      session,
    }),
  );
}
