import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { throttled } from './errors.js';

export interface RateLimitOptions {
  perSecond: number;
  redis: Redis | null;
  /** What shares one budget: the account, or the client id on the token endpoint. */
  key: (request: FastifyRequest) => string;
  namespace: string;
}

/** N requests per second per key on every route of this scope; 429 "Throttled" beyond. */
export async function limitRate(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max: options.perSecond,
    timeWindow: 1000,
    hook: 'onRequest',
    keyGenerator: options.key,
    nameSpace: `waybill-rl-${options.namespace}-`,
    redis: options.redis ?? undefined,
    skipOnError: false,
    enableDraftSpec: true,
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
    addHeaders: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
      'retry-after': true,
      'ratelimit-limit': true,
      'ratelimit-remaining': true,
      'ratelimit-reset': true,
    },
    errorResponseBuilder: (_request, context) => Object.assign(new Error('Throttled'), { statusCode: context.statusCode, throttled }),
  });
}
