import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireBearer } from '../auth.js';
import { acceptIdempotencyKeys } from '../idempotency.js';
import { accountRateKey, limitRate, type RateLimiter } from '../rate-limit.js';
import { analyticsRoutes } from './analytics.routes.js';
import { bookingRoutes } from './booking.routes.js';
import { carrierConfigRoutes } from './carrier-configs.routes.js';
import { carrierDetectRoutes } from './carrier-detect.routes.js';
import { documentRoutes } from './documents.routes.js';
import { eventRoutes } from './events.routes.js';
import { importRoutes } from './import.routes.js';
import { notificationRoutes } from './notifications.routes.js';
import { pudoRoutes } from './pudo.routes.js';
import { returnPolicyRoutes } from './return-policy.routes.js';
import { returnRoutes } from './returns.routes.js';
import { shipmentRoutes } from './shipments.routes.js';
import { webhookRoutes } from './webhooks.routes.js';

/** Every endpoint of the merchant interface: bearer token, then the per-account rate limit. */
export const merchantRoutes: FastifyPluginAsyncTypebox<{ limiter: RateLimiter }> = async (app, options) => {
  requireBearer(app);
  limitRate(app, {
    limiter: options.limiter,
    perSecond: app.context.config.rateLimitPerSecond,
    key: (request) => accountRateKey(request.caller?.accountId as number),
  });
  acceptIdempotencyKeys(app);
  await app.register(carrierConfigRoutes);
  await app.register(carrierDetectRoutes);
  await app.register(shipmentRoutes);
  await app.register(importRoutes);
  await app.register(eventRoutes);
  await app.register(returnRoutes);
  await app.register(returnPolicyRoutes);
  await app.register(bookingRoutes);
  await app.register(documentRoutes);
  await app.register(pudoRoutes);
  await app.register(webhookRoutes);
  await app.register(notificationRoutes);
  await app.register(analyticsRoutes);
};
