import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { type AppContext, createContext } from './context.js';
import { buildApp } from './http/app.js';

export interface RunningServer {
  app: FastifyInstance;
  context: AppContext;
  url: string;
  stop(): Promise<void>;
}

/** Opens the database, migrates, serves HTTP; `stop` drains requests and closes every handle. */
export async function startServer(config: Config): Promise<RunningServer> {
  const context = await createContext(config);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true }) : null;
  const app = await buildApp(context, { redis });
  const url = await app.listen({ port: config.port, host: config.host });
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      await app.close();
      await context.close();
      redis?.disconnect();
    })();
    return stopping;
  };
  return { app, context, url, stop };
}
