import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CredentialBackoff } from '../credential-backoff.js';
import { exchangeCredentials } from '../credential-exchange.js';
import { renderMessagePage } from '../pages/console/message.html.js';
import { renderSignIn } from '../pages/console/sign-in.html.js';
import type { RateLimiter } from '../rate-limit.js';
import {
  clearCookie,
  cookie,
  newSignInToken,
  readCookie,
  resolveSession,
  revokeSession,
  SESSION_COOKIE,
  SIGN_IN_COOKIE,
  sameToken,
  sealSession,
  sendHtml,
  sessionOf,
} from './console-session.js';
import { formFields, type QueryFields } from './form-input.js';

const SIGN_IN_PATH = '/console/sign-in/';
/** Credentials are printable text, as on the token endpoint; anything else is never looked up. */
const PRINTABLE = /^[\x20-\x7e]{1,200}$/;

/**
 * Signing in and out. The form posts the client id and secret to the server, which exchanges them through
 * the auth service (as `POST /auth/oauth/token/` does) and keeps only the resulting token, in an HttpOnly cookie.
 */
export const signInRoutes: FastifyPluginAsyncTypebox<{ limiter: RateLimiter; backoff: CredentialBackoff }> = async (app, options) => {
  const { auth } = app.context;
  const gate = { auth, limiter: options.limiter, backoff: options.backoff, perSecond: app.context.config.rateLimitPerSecond };

  /** A fresh sign-in form with its own token in a cookie (double submit: a cross-site form cannot know it). */
  const showForm = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    extra: { clientId?: string; error?: string; info?: string },
  ) => {
    const formToken = newSignInToken();
    reply.header('set-cookie', cookie(request, SIGN_IN_COOKIE, formToken, { path: SIGN_IN_PATH, maxAgeSeconds: 3600 }));
    return sendHtml(reply, status, renderSignIn({ formToken, ...extra }));
  };

  app.get<{ Querystring: QueryFields }>('/sign-in/', async (request, reply) => {
    const sealed = readCookie(request, SESSION_COOKIE);
    if (sealed && (await resolveSession(app.context, sealed))) return reply.redirect('/console/shipments/', 303);
    const { reason } = request.query;
    const info =
      reason === 'expired' ? 'Your session has ended. Sign in again.' : reason === 'signed-out' ? 'You have signed out.' : undefined;
    return showForm(request, reply, 200, { info });
  });

  app.post('/sign-in/', async (request, reply) => {
    const body = formFields(request.body);
    const expected = readCookie(request, SIGN_IN_COOKIE);
    if (!expected || !sameToken(body.csrf, expected)) {
      return showForm(request, reply, 403, { error: 'This sign-in form has expired or did not come from the console. Try again.' });
    }
    const clientId = typeof body.client_id === 'string' ? body.client_id.trim() : '';
    const secret = typeof body.client_secret === 'string' ? body.client_secret : '';
    if (!PRINTABLE.test(clientId) || !PRINTABLE.test(secret)) {
      return showForm(request, reply, 400, {
        clientId: PRINTABLE.test(clientId) ? clientId : undefined,
        error: 'Enter your client id and client secret.',
      });
    }
    // The same budgets and back-off as the token endpoint, shared with it.
    const exchange = await exchangeCredentials(gate, clientId, secret, request.ip);
    if (exchange.outcome === 'wait') {
      reply.header('retry-after', exchange.retryAfterSeconds);
      return sendHtml(reply, 429, renderMessagePage({ title: 'Too many attempts', text: 'Wait a moment, then try again.' }));
    }
    if (exchange.outcome === 'refused') {
      return showForm(request, reply, 401, {
        clientId,
        error: 'The client id or secret is not right, or these credentials were revoked.',
      });
    }
    const issued = exchange.token;
    reply.header('set-cookie', [
      cookie(request, SESSION_COOKIE, sealSession(app.context.secrets, issued.access_token), {
        path: '/console/',
        maxAgeSeconds: issued.expires_in,
      }),
      clearCookie(request, SIGN_IN_COOKIE, SIGN_IN_PATH),
    ]);
    return reply.redirect('/console/shipments/', 303);
  });
};

/** Signing out (a signed-in, token-checked form): the session is ended on the server and the cookie removed. */
export const signOutRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/sign-out/', async (request, reply) => {
    await revokeSession(app.context, sessionOf(request));
    reply.header('set-cookie', clearCookie(request, SESSION_COOKIE, '/console/'));
    return reply.redirect('/console/sign-in/?reason=signed-out', 303);
  });
};
