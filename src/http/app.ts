import fs from 'node:fs';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import type { Redis } from 'ioredis';
import type { AppContext } from '../context.js';
import { ErrorEnvelope, FieldErrors } from '../schemas/common.js';
import { registerJsonBodyParser } from './body-parser.js';
import { answerClientError } from './client-errors.js';
import { consoleRoutes } from './console/console.routes.js';
import { MemoryCredentialBackoff, RedisCredentialBackoff } from './credential-backoff.js';
import { registerErrorHandling } from './errors.js';
import { answerKept, type RequestHandler } from './kept-answers.js';
import { redactUrl, withRedactedUrls } from './log-redaction.js';
import { registerMetrics } from './metrics.js';
import { decorateOpenApi } from './openapi.js';
import { MemoryRateLimiter, RedisRateLimiter } from './rate-limit.js';
import { requestIds } from './request-id.js';
import { lazyChildren } from './request-logger.js';
import { adminRoutes } from './routes/admin.routes.js';
import { carrierHookRoutes } from './routes/carrier-hooks.routes.js';
import { fileRoutes } from './routes/files.routes.js';
import { merchantRoutes } from './routes/merchant.routes.js';
import { notificationLinkRoutes } from './routes/notification-links.routes.js';
import { opsRoutes } from './routes/ops.routes.js';
import { returnsPortalRoutes } from './routes/returns-portal.routes.js';
import { tokenRoutes } from './routes/token.routes.js';
import { registerSerialization } from './serialization.js';
import { registerValidation } from './validation.js';

declare module 'fastify' {
  interface FastifyInstance {
    context: AppContext;
    /** What the HTTP server calls for each request: the router, behind the answers kept for the requests asked most (kept-answers.ts). */
    requestHandler: RequestHandler;
  }
}

/**
 * Fastify logs two info lines per request ("incoming request", "request completed"), which cost more than
 * many handlers. This keeps one concise line per request at debug level instead, and every error line as it was.
 * URLs are logged redacted (signed links' signatures, tracking page references).
 */
class ConciseRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    const log = reply.log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
    if (log.isLevelEnabled?.('debug') ?? true) {
      log.debug(
        { method: request.method, url: redactUrl(request.url), statusCode: reply.statusCode, responseTime: reply.elapsedTime },
        'request completed',
      );
    }
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.info(`Route ${request.method}:${redactUrl(request.url)} not found`);
  }
}

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
  redis?: Redis | null;
  /** Key prefix of the Redis rate-limit counters (lets deployments or test runs share one Redis). */
  rateLimitPrefix?: string;
}

export async function buildApp(context: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config } = context;
  const nextRequestId = requestIds();
  const https =
    config.tlsCertFile && config.tlsKeyFile
      ? { https: { cert: fs.readFileSync(config.tlsCertFile), key: fs.readFileSync(config.tlsKeyFile) } }
      : {};
  const app = Fastify({
    ...https,
    logger: withRedactedUrls(
      options.logger ?? {
        level: config.logLevel,
        redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
      },
    ),
    genReqId: nextRequestId,
    logController: new ConciseRequestLog(),
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimitBytes,
    routerOptions: { maxParamLength: 200 },
    // Errors Fastify answers before routing (a path with broken percent-encoding) get the envelope too.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      reply
        .code(400)
        .type('application/json; charset=utf-8')
        .send({
          api_response: '4000',
          message: `Invalid request format: ${error.code === 'FST_ERR_BAD_URL' ? 'the path is not valid URL encoding' : error.message}`,
        });
    },
    // Slow clients and oversized heads (src/server.ts sets the same limits on the listening server).
    clientErrorHandler: answerClientError,
    connectionTimeout: config.connectionTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
  }).withTypeProvider<TypeBoxTypeProvider>();

  lazyChildren(app.log);
  app.decorate('context', context);
  app.decorateRequest('caller', null);
  app.addSchema(FieldErrors);
  app.addSchema(ErrorEnvelope);
  registerErrorHandling(app);
  registerJsonBodyParser(app);
  registerValidation(app);
  registerSerialization(app, [ErrorEnvelope, FieldErrors]);

  // Before any route is added: each route observes its own durations (metrics.ts).
  const durations = registerMetrics(app);

  // Callback-style hooks: every request runs them, and an async hook costs a promise and a microtask turn.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  if (config.requireHttps) {
    app.addHook('onRequest', (request, reply, done) => {
      if (request.protocol === 'https') return done();
      reply.code(403).send({ api_response: 403, message: 'HTTPS required: this API is served over HTTPS only' });
    });
  }

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Waybill API',
        version: '5.0.0',
        description: 'Shipments, tracking, returns, carrier booking and labels.',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Access token from POST /auth/oauth/token/' },
          basicAuth: { type: 'http', scheme: 'basic', description: 'client_id:client_secret' },
          adminToken: { type: 'http', scheme: 'bearer', description: 'WAYBILL_ADMIN_TOKEN' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    // Idempotency-Key, 409, 413, 400 and the ignored-fields header, which no route schema states itself.
    transformObject: (document) => ('openapiObject' in document ? decorateOpenApi(document) : document.swaggerObject),
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  await app.register(opsRoutes);
  await app.register(fileRoutes);
  await app.register(carrierHookRoutes);
  await app.register(notificationLinkRoutes);
  const limiter = options.redis
    ? new RedisRateLimiter(options.redis, context.clock, options.rateLimitPrefix)
    : new MemoryRateLimiter(context.clock);
  const backoff = options.redis
    ? new RedisCredentialBackoff(options.redis, context.clock, options.rateLimitPrefix)
    : new MemoryCredentialBackoff(context.clock);
  await app.register(tokenRoutes, { limiter, backoff });
  await app.register(merchantRoutes, { limiter });
  await app.register(adminRoutes, { prefix: '/admin/v1' });
  await app.register(consoleRoutes, { prefix: '/console', limiter, backoff });
  await app.register(returnsPortalRoutes, { backoff });

  const requestHandler = answerKept(app, { route: app.routing, limiter, durations, requestId: nextRequestId });
  if (requestHandler !== app.routing) {
    app.server.removeListener('request', app.routing);
    app.server.on('request', requestHandler);
  }
  app.decorate('requestHandler', requestHandler);
  return app;
}
