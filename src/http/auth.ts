import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Feature } from '../core/features.js';
import type { Caller } from '../domain/auth.service.js';
import { FeatureNotEnabledError } from '../domain/errors.js';
import { safeEqual } from '../secrets.js';
import { keyNotAuthorized } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** Resolves `Authorization: Bearer <token>` on every route of this scope; 403 "Key not authorized" otherwise. */
export function requireBearer(app: FastifyInstance): void {
  const { auth } = app.context;
  // Callback style: a token whose credential is cached is resolved without a promise or a microtask turn.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const token = bearerToken(request.headers.authorization);
    const resolved = (caller: Caller | null) => {
      if (!caller) {
        reply.code(403).send(keyNotAuthorized);
        return;
      }
      request.caller = caller;
      done();
    };
    if (token === null) return resolved(null);
    const cached = auth.authenticateCached(token);
    if (cached !== undefined) return resolved(cached);
    auth.authenticate(token).then(resolved, done);
  });
}

/** The token of an `Authorization: Bearer <token>` header; null for any other header, or none. */
export function bearerToken(header: string | undefined): string | null {
  return header ? (/^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? null) : null;
}

/** The caller of a bearer-authenticated route. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route is not behind requireBearer');
  return request.caller;
}

/**
 * A route's `onRequest` hook (after `requireBearer`) that refuses a caller without `feature` with 403 `4033`
 * before the body is read: such an account learns that first, not what is wrong with the body. The services
 * check the feature again.
 */
export function requireFeature(feature: Feature) {
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    done(request.caller && !request.caller.features.has(feature) ? new FeatureNotEnabledError(feature) : undefined);
  };
}

/** Operators' routes: `Authorization: Bearer <WAYBILL_ADMIN_TOKEN>`, 401 otherwise. */
export function requireAdmin(app: FastifyInstance): void {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match || !safeEqual(match[1], app.context.adminToken)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="waybill-admin"')
        .send({ api_response: '4010', message: 'Admin token missing or wrong' });
    }
  });
}
