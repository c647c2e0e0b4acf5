import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { requireBearer } from '../auth.js';
import { limitRate } from '../rate-limit.js';
import { carrierConfigRoutes } from './carrier-configs.routes.js';

/** Every endpoint of the merchant interface: bearer token, then the per-account rate limit. */
export async function merchantRoutes(app: FastifyInstance, options: { redis: Redis | null }): Promise<void> {
  requireBearer(app);
  await limitRate(app, {
    perSecond: app.context.config.rateLimitPerSecond,
    redis: options.redis,
    namespace: 'account',
    key: (request) => `account:${request.caller?.accountId ?? request.ip}`,
  });
  await app.register(carrierConfigRoutes);
}
