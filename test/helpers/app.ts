import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { pino } from 'pino';
import { ManualClock } from '../../src/clock.js';
import { type Config, loadConfig } from '../../src/config.js';
import { type AppContext, createContext } from '../../src/context.js';
import { buildApp } from '../../src/http/app.js';

export interface TestAccount {
  accountUuid: string;
  clientId: string;
  clientSecret: string;
  token: string;
}

export interface TestApp {
  app: FastifyInstance;
  context: AppContext;
  clock: ManualClock;
  config: Config;
  adminToken: string;
  /** Calls the API as an operator. */
  admin(method: InjectOptions['method'], url: string, body?: unknown): Promise<LightMyRequestResponse>;
  /** Calls the API as this account, renewing its token when the (manual) clock has moved past its hour. */
  as(
    account: TestAccount,
  ): (method: InjectOptions['method'], url: string, body?: unknown, query?: Record<string, string>) => Promise<LightMyRequestResponse>;
  /** Calls the API with a bearer token. */
  call(
    token: string,
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
    query?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  /** An account with features, credentials, a token, and optionally carrier configurations. */
  account(options?: {
    features?: string[];
    carriers?: Array<{ carrier_reference: string; carrier_id?: string; booking?: string[]; settings?: Record<string, unknown> }>;
  }): Promise<TestAccount>;
  close(): Promise<void>;
}

export const usingPostgres = Boolean(process.env.DATABASE_URL);

export async function createTestApp(
  options: {
    env?: Record<string, string>;
    clock?: ManualClock;
    setup?: (app: FastifyInstance) => void;
    /** Share rate limits through this Redis (the caller closes it); `rateLimitPrefix` keeps runs apart. */
    redis?: Redis;
    rateLimitPrefix?: string;
    /** Every log line of the app and its context, at trace level, with the service's own redaction. */
    logStream?: NodeJS.WritableStream;
  } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-test-'));
  const config = loadConfig({
    WAYBILL_DATA_DIR: dataDir,
    WAYBILL_ADMIN_TOKEN: `wbadm_${randomBytes(16).toString('hex')}`,
    WAYBILL_PUBLIC_URL: 'https://waybill.test',
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    LOG_LEVEL: 'silent',
    // Suites about other things must not trip the per-second limit; the rate-limit suites set 40.
    WAYBILL_RATE_LIMIT_PER_SECOND: '1000000',
    ...options.env,
  });
  const schema = usingPostgres ? `wbt_${randomBytes(6).toString('hex')}` : undefined;
  if (schema) await withPg((client) => client.query(`CREATE SCHEMA ${schema}`));
  const clock = options.clock ?? new ManualClock(new Date());
  const stream = options.logStream;
  const logger = stream ? pino({ level: 'trace', name: 'waybill' }, stream) : pino({ level: 'silent' });
  const context = await createContext(config, { clock, pgSchema: schema, logger });
  const app = await buildApp(context, {
    // As buildApp's default logger, but at trace level and into the stream.
    logger: stream
      ? { level: 'trace', stream, redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' } }
      : false,
    redis: options.redis,
    rateLimitPrefix: options.rateLimitPrefix,
  });
  options.setup?.(app);
  await app.ready();

  const inject = (opts: InjectOptions) => app.inject(opts);
  const admin: TestApp['admin'] = (method, url, body) =>
    inject({
      method,
      url,
      headers: { authorization: `Bearer ${config.adminToken}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  const call: TestApp['call'] = (token, method, url, body, query) =>
    inject({
      method,
      url,
      query,
      headers: { authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });

  const account: TestApp['account'] = async (opts = {}) => {
    const created = await admin('POST', '/admin/v1/accounts/', {
      name: `acct-${randomBytes(3).toString('hex')}`,
      features: opts.features ?? [],
    });
    if (created.statusCode !== 201) throw new Error(`account: ${created.body}`);
    const accountUuid = created.json().account_uuid as string;
    const creds = (await admin('POST', `/admin/v1/accounts/${accountUuid}/credentials/`)).json();
    for (const carrier of opts.carriers ?? []) {
      const res = await admin('POST', `/admin/v1/accounts/${accountUuid}/carrier-configs/`, { carrier_id: 'sandbx', ...carrier });
      if (res.statusCode !== 201) throw new Error(`carrier config: ${res.body}`);
    }
    const token = await issueToken(app, creds.client_id, creds.client_secret);
    return { accountUuid, clientId: creds.client_id, clientSecret: creds.client_secret, token };
  };

  const as: TestApp['as'] = (acct) => async (method, url, body, query) => {
    const issuedAt = tokenIssuedAt.get(acct) ?? 0;
    if (clock.now().getTime() - issuedAt > 50 * 60_000) {
      acct.token = await issueToken(app, acct.clientId, acct.clientSecret);
      tokenIssuedAt.set(acct, clock.now().getTime());
    }
    return call(acct.token, method, url, body, query);
  };
  const tokenIssuedAt = new WeakMap<TestAccount, number>();

  return {
    app,
    context,
    clock,
    as,
    config,
    adminToken: config.adminToken as string,
    admin,
    call,
    account,
    async close() {
      await app.close();
      await context.close();
      if (schema) await withPg((client) => client.query(`DROP SCHEMA ${schema} CASCADE`));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function issueToken(app: FastifyInstance, clientId: string, clientSecret: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/auth/oauth/token/',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: 'grant_type=client_credentials',
  });
  if (res.statusCode !== 200) throw new Error(`token: ${res.statusCode} ${res.body}`);
  return res.json().access_token;
}

async function withPg<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
