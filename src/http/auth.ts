import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../domain/auth.service.js';
import { FeatureNotEnabledError } from '../domain/errors.js';
import type { Feature } from '../domain/features.js';
import { safeEqual } from '../secrets.js';
import { keyNotAuthorized } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** Resolves `Authorization: Bearer <token>` on every route of this scope; 403 "Key not authorized" otherwise. */
export function requireBearer(app: FastifyInstance): void {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const caller = match ? await app.context.auth.authenticate(match[1]) : null;
    if (!caller) return reply.code(403).send(keyNotAuthorized);
    request.caller = caller;
  });
}

/** The caller of a bearer-authenticated route. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route is not behind requireBearer');
  return request.caller;
}

export function requireFeature(caller: Caller, feature: Feature): void {
  if (!caller.features.has(feature)) throw new FeatureNotEnabledError(feature);
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
