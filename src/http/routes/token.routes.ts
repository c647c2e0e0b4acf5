import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { CredentialBackoff } from '../credential-backoff.js';
import { type CredentialGate, exchangeCredentials } from '../credential-exchange.js';
import { keyNotAuthorized, throttled } from '../errors.js';
import type { RateDecision, RateLimiter } from '../rate-limit.js';

const TokenResponse = Type.Object({
  access_token: Type.String(),
  expires_in: Type.Integer({ examples: [3600] }),
  token_type: Type.Literal('Bearer'),
});

/** `Authorization: Basic base64(client_id:client_secret)` → the pair, or null when malformed. */
export function parseBasic(header: string | undefined): { clientId: string; clientSecret: string } | null {
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) return null;
  // Credentials are printable text; anything else (NUL, control characters) cannot match and is not looked up.
  if (!/^[\x20-\x7e]{1,200}$/.test(decoded)) return null;
  return { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) };
}

function invalidRequest(error: string, message: string) {
  return { api_response: '4000', message, error };
}

function budgetHeaders(reply: FastifyReply, decision: RateDecision): void {
  reply.headers({
    'ratelimit-limit': decision.limit,
    'ratelimit-remaining': decision.remaining,
    'ratelimit-reset': decision.resetSeconds,
  });
}

function throttle(reply: FastifyReply, retryAfterSeconds: number) {
  return reply.code(429).header('retry-after', retryAfterSeconds).send(throttled);
}

export const tokenRoutes: FastifyPluginAsyncTypebox<{ limiter: RateLimiter; backoff: CredentialBackoff }> = async (app, options) => {
  await app.register(formbody, { bodyLimit: 4096 });
  const perSecond = app.context.config.rateLimitPerSecond;
  const gate: CredentialGate = { auth: app.context.auth, limiter: options.limiter, backoff: options.backoff, perSecond };

  // The body is whatever the form parser made of it (or nothing): the schema documents it, the handler checks it.
  app.post<{ Body: Record<string, unknown> | undefined }>(
    '/auth/oauth/token/',
    {
      schema: {
        tags: ['Authentication'],
        summary: 'Obtain an access token (OAuth 2.0 client credentials)',
        security: [{ basicAuth: [] }],
        consumes: ['application/x-www-form-urlencoded'],
        body: Type.Object({ grant_type: Type.Literal('client_credentials') }, { description: 'form fields' }),
        response: { 200: TokenResponse, 400: Type.Ref('ErrorEnvelope'), 403: Type.Ref('ErrorEnvelope'), 429: Type.Ref('ErrorEnvelope') },
      },
      // The body is checked by hand below so that credentials are judged before anything else.
      validatorCompiler: () => () => true,
    },
    async (request, reply) => {
      const basic = parseBasic(request.headers.authorization);
      if (!basic) {
        // No client id to count against: the source address is.
        const decision = await options.limiter.hit(`ip:${request.ip}`, perSecond);
        if (!decision.allowed) return throttle(reply, decision.resetSeconds);
        return reply.code(403).send(keyNotAuthorized);
      }
      const exchange = await exchangeCredentials(gate, basic.clientId, basic.clientSecret, request.ip);
      if (exchange.outcome === 'refused') return reply.code(403).send(keyNotAuthorized);
      if (exchange.budget) budgetHeaders(reply, exchange.budget);
      if (exchange.outcome === 'wait') return throttle(reply, exchange.retryAfterSeconds);
      if (!request.headers['content-type']?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
        return reply
          .code(400)
          .send(invalidRequest('invalid_request', 'Send the body as application/x-www-form-urlencoded: grant_type=client_credentials'));
      }
      const grantType = request.body?.grant_type;
      if (grantType !== 'client_credentials') {
        return reply.code(400).send(invalidRequest('unsupported_grant_type', 'grant_type must be client_credentials'));
      }
      reply.header('cache-control', 'no-store');
      return exchange.token;
    },
  );
};
