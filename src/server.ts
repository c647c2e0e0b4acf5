import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { type AppContext, type ContextOptions, createContext } from './context.js';
import { buildApp } from './http/app.js';
import { HttpDrain } from './http/drain.js';
import { watchRedis } from './http/rate-limit.js';
import { announceWrites } from './http/write-announcements.js';
import { settlesBy } from './shutdown.js';
import { collectStartupGarbage } from './startup-garbage.js';

export interface RunningServer {
  app: FastifyInstance;
  context: AppContext;
  url: string;
  stop(): Promise<void>;
}

/**
 * Opens the database, migrates, serves HTTP. `stop` is the graceful stop (SIGTERM): the worker stops claiming
 * jobs, the HTTP server drains (src/http/drain.ts: connections stay open for `config.shutdownGraceMs`, requests
 * in flight are answered), and both get until `config.shutdownTimeoutMs` after the call; connections still open
 * then are closed, and jobs still running are left to their leases.
 */
export async function startServer(config: Config, options: ContextOptions = {}): Promise<RunningServer> {
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true }) : null;
  const context = await createContext(config, { redis, ...options }).catch((error) => {
    redis?.disconnect();
    throw error;
  });
  if (redis) watchRedis(redis, context.log);
  const app = await buildApp(context, { redis, rateLimitPrefix: config.rateLimitPrefix });
  applyConnectionLimits(app.server as Server, config);
  if (context.database.announceWrite) announceWrites(app.server as Server, context.database.announceWrite);
  const drain = new HttpDrain(app.server as Server, app.requestHandler, { graceMs: config.shutdownGraceMs });
  // Every route's validators and serializers are compiled once the app is ready: their garbage goes before requests come.
  await app.ready();
  collectStartupGarbage();
  const url = await app.listen({ port: config.port, host: config.host });
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      const deadline = Date.now() + config.shutdownTimeoutMs;
      // Requests waiting on a carrier give up in time to answer before the drain closes their connections.
      context.carrierWaits.stopBy(deadline);
      const workerStopped = context.worker.stop();
      if (!(await drain.close(deadline))) app.log.warn('connections still open at the shutdown deadline were closed');
      await app.close();
      redis?.disconnect();
      if (!(await settlesBy(workerStopped, deadline))) {
        // Leave the database to the process's exit: closing it would fail the jobs, whose leases hand them on.
        app.log.warn('jobs still running at the shutdown deadline; other workers take them over when their leases end');
        return;
      }
      await context.close();
    })();
    return stopping;
  };
  return { app, context, url, stop };
}

/**
 * Slow or oversized clients are cut off: a request head larger than `maxHeaderBytes` is answered 431; headers
 * not complete within `headersTimeoutMs`, or a request not complete within `requestTimeoutMs`, is answered 408
 * and closed; a socket idle for `connectionTimeoutMs` is closed. Set before listening: Node reads the header
 * limit per connection and starts its timeout checks when the server starts listening.
 */
export function applyConnectionLimits(httpServer: Server, config: Config): void {
  // createServer stores `maxHeaderSize` and `connectionsCheckingInterval` on the server, where Node reads them
  // (per connection, and when listening starts); the types only declare them as options. test/security/limits
  // proves they take effect.
  const server = httpServer as Server & { maxHeaderSize: number; connectionsCheckingInterval: number };
  server.maxHeaderSize = config.maxHeaderBytes;
  server.requestTimeout = config.requestTimeoutMs;
  server.headersTimeout = config.headersTimeoutMs;
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  // Node checks the header and request timeouts on this interval (30 s by default): check often enough
  // that a slow client is cut off close to its limit.
  server.connectionsCheckingInterval = Math.min(1000, config.headersTimeoutMs);
  server.setTimeout(config.connectionTimeoutMs);
}
