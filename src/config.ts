import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type CarrierWaitBudget, carrierWaitBudget } from './core/carrier-wait.js';

/** Every environment variable the service reads, parsed and validated once. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** SQLite: `full` syncs every commit to disk (an acknowledged write survives a power loss); `normal` does not. */
  sqliteSynchronous: SqliteSynchronous;
  /**
   * SQLite: how long a commit may wait (ms), while write requests overlap, for more to share it (one commit and one
   * sync for several); 0 commits each at once.
   */
  sqliteCommitWindowMs: number;
  /** PostgreSQL: the service's fixed statements prepared once on each connection (off behind a pooler that cannot keep them). */
  pgPreparedStatements: boolean;
  redisUrl: string | null;
  /** `WAYBILL_CARRIER_<ID>_<SETTING>` variables: carriers' base URLs and platform credentials (src/carriers/sdk/operator-settings.ts). */
  carrierEnv: Record<string, string>;
  /** Start of every rate-limit key in Redis, so several deployments can share one Redis. */
  rateLimitPrefix: string;
  adminToken: string | null;
  secretKey: string | null;
  publicUrl: string;
  rateLimitPerSecond: number;
  trustProxy: boolean;
  requireHttps: boolean;
  tlsCertFile: string | null;
  tlsKeyFile: string | null;
  logLevel: string;
  bodyLimitBytes: number;
  credentialCacheSeconds: number;
  /** How long a process answers an account's carrier configurations from memory before reading them again. */
  carrierConfigCacheSeconds: number;
  /** Memory for shipments rendered as JSON (details and lists), in MiB; 0 renders every response anew. */
  renderCacheMegabytes: number;
  trackingWindowDays: number;
  /** Whose history delivery predictions learn from: the whole instance's (default), or each account's own. */
  predictionScope: 'instance' | 'account';
  allowPrivateWebhooks: boolean;
  /** Slow clients: the whole request, its headers, an idle socket, an idle keep-alive connection (ms). */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  connectionTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How long a request may wait on carriers, derived from `connectionTimeoutMs` (src/core/carrier-wait.ts). */
  carrierWait: CarrierWaitBudget;
  /** Largest request head (request line and headers) in bytes; larger is answered 431. */
  maxHeaderBytes: number;
  /** How long work claimed by a process stays its own; after a crash, others take it over when this ends (ms). */
  jobLeaseMs: number;
  pollLeaseMs: number;
  idempotencyLeaseMs: number;
  /** A booking whose process died before it finished frees its shipment after this long (ms). */
  bookingLeaseMs: number;
  /** After SIGTERM, how long requests and jobs in flight may take before connections are cut and the process exits (ms). */
  shutdownTimeoutMs: number;
  /** After SIGTERM, how long connections stay open and requests sent on them are served (ms; within the timeout). */
  shutdownGraceMs: number;
  notifications: NotificationConfig;
}

/** The operator's side of consumer notifications (docs/notifications.md). */
export interface NotificationConfig {
  /** `smtp://user:pass@host:port` or `smtps://…`; null: no e-mail is sent. */
  smtpUrl: string | null;
  /** The default sender, `Name <address>` or an address. */
  smtpFrom: string | null;
  /** Connections kept open to the SMTP server (pooled). */
  smtpPoolSize: number;
  /** DKIM signing: all three or none. */
  dkim: { domainName: string; keySelector: string; privateKey: string } | null;
  /** Replaces Twilio's API base URL (tests, regional edges). */
  twilioBaseUrl: string;
  /** Messages one recipient gets from one account per hour at most; more wait for the next hour. */
  recipientLimitPerHour: number;
}

export class ConfigError extends Error {}

export type SqliteSynchronous = 'full' | 'normal';

function sqliteSynchronous(env: NodeJS.ProcessEnv): SqliteSynchronous {
  const raw = (env.WAYBILL_SQLITE_SYNCHRONOUS ?? '').toLowerCase();
  if (raw === '') return 'full';
  if (raw === 'full' || raw === 'normal') return raw;
  throw new ConfigError(`WAYBILL_SQLITE_SYNCHRONOUS must be full or normal, got "${env.WAYBILL_SQLITE_SYNCHRONOUS}"`);
}

function predictionScope(env: NodeJS.ProcessEnv): 'instance' | 'account' {
  const raw = (env.WAYBILL_PREDICTION_SCOPE ?? '').toLowerCase();
  if (raw === '') return 'instance';
  if (raw === 'instance' || raw === 'account') return raw;
  throw new ConfigError(`WAYBILL_PREDICTION_SCOPE must be instance or account, got "${env.WAYBILL_PREDICTION_SCOPE}"`);
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback = false): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  if (raw === '') return fallback;
  if (raw === 'false' || raw === '0' || raw === 'no') return false;
  if (raw === 'true' || raw === '1' || raw === 'yes') return true;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function optional(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw === '' ? null : raw;
}

/** The render cache's default bounds per process (MiB). */
export const RENDER_CACHE_DEFAULT_MB = { min: 32, max: 256 } as const;

/**
 * The render cache's default size per process: an eighth of the memory the service may use (its cgroup's limit when
 * it runs in a container, the machine's otherwise), shared by its `processes`, from 32 to 256 MiB. Kept renderings
 * are about 8 KB per shipment and shape with ten events: a cache smaller than the shipments merchants read makes
 * every request that misses it render anew, which cost more CPU and more memory in garbage than it saved
 * (docs/performance.md). It fills only as shipments are read; an idle process holds none.
 */
export function defaultRenderCacheMegabytes(processes = 1, memoryBytes = availableMemoryBytes()): number {
  const share = Math.floor(memoryBytes / 8 / processes / 1_048_576);
  return Math.min(RENDER_CACHE_DEFAULT_MB.max, Math.max(RENDER_CACHE_DEFAULT_MB.min, share));
}

/** The memory this process may use: its cgroup's limit where one is set, else the machine's. */
function availableMemoryBytes(): number {
  const total = os.totalmem();
  // Node reports no limit as 0 or as a huge number, depending on the cgroup version.
  const constrained = process.constrainedMemory?.() ?? 0;
  return constrained > 0 && constrained < total ? constrained : total;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const host = optional(env, 'HOST') ?? '127.0.0.1';
  const databaseUrl = optional(env, 'DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const tlsCertFile = optional(env, 'TLS_CERT_FILE');
  const tlsKeyFile = optional(env, 'TLS_KEY_FILE');
  if ((tlsCertFile === null) !== (tlsKeyFile === null)) {
    throw new ConfigError('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }
  const scheme = tlsCertFile ? 'https' : 'http';
  const publicUrl = (optional(env, 'WAYBILL_PUBLIC_URL') ?? `${scheme}://${host}:${port}`).replace(/\/+$/, '');
  return {
    port,
    host,
    dataDir: path.resolve(optional(env, 'WAYBILL_DATA_DIR') ?? './data'),
    databaseUrl,
    sqliteSynchronous: sqliteSynchronous(env),
    sqliteCommitWindowMs: integer(env, 'WAYBILL_SQLITE_COMMIT_WINDOW_MS', 3, 0, 1000),
    pgPreparedStatements: flag(env, 'WAYBILL_PG_PREPARED_STATEMENTS', true),
    redisUrl: optional(env, 'REDIS_URL'),
    carrierEnv: Object.fromEntries(
      Object.entries(env).filter(
        (entry): entry is [string, string] => entry[0].startsWith('WAYBILL_CARRIER_') && typeof entry[1] === 'string',
      ),
    ),
    rateLimitPrefix: optional(env, 'WAYBILL_RATE_LIMIT_PREFIX') ?? 'waybill:rl:',
    adminToken: optional(env, 'WAYBILL_ADMIN_TOKEN'),
    secretKey: optional(env, 'WAYBILL_SECRET_KEY'),
    publicUrl,
    rateLimitPerSecond: integer(env, 'WAYBILL_RATE_LIMIT_PER_SECOND', 40, 1, 1_000_000),
    trustProxy: flag(env, 'WAYBILL_TRUST_PROXY'),
    requireHttps: flag(env, 'WAYBILL_REQUIRE_HTTPS'),
    tlsCertFile,
    tlsKeyFile,
    logLevel: optional(env, 'LOG_LEVEL') ?? 'info',
    bodyLimitBytes: integer(env, 'WAYBILL_BODY_LIMIT_BYTES', 1_048_576, 1024, 100 * 1_048_576),
    credentialCacheSeconds: integer(env, 'WAYBILL_CREDENTIAL_CACHE_SECONDS', 5, 0, 3600),
    carrierConfigCacheSeconds: integer(env, 'WAYBILL_CARRIER_CONFIG_CACHE_SECONDS', 5, 0, 3600),
    renderCacheMegabytes: integer(env, 'WAYBILL_RENDER_CACHE_MB', defaultRenderCacheMegabytes(), 0, 65_536),
    trackingWindowDays: integer(env, 'WAYBILL_TRACKING_WINDOW_DAYS', 30, 1, 365),
    predictionScope: predictionScope(env),
    allowPrivateWebhooks: flag(env, 'WAYBILL_ALLOW_PRIVATE_WEBHOOKS'),
    ...connectionLimits(env),
    maxHeaderBytes: integer(env, 'WAYBILL_MAX_HEADER_BYTES', 16_384, 1024, 1_048_576),
    jobLeaseMs: integer(env, 'WAYBILL_JOB_LEASE_SECONDS', 60, 1, 86_400) * 1000,
    pollLeaseMs: integer(env, 'WAYBILL_POLL_LEASE_SECONDS', 120, 1, 86_400) * 1000,
    idempotencyLeaseMs: integer(env, 'WAYBILL_IDEMPOTENCY_LEASE_SECONDS', 60, 1, 86_400) * 1000,
    bookingLeaseMs: integer(env, 'WAYBILL_BOOKING_LEASE_SECONDS', 300, 1, 86_400) * 1000,
    ...shutdownTimes(env),
    notifications: notificationConfig(env),
  };
}

function shutdownTimes(env: NodeJS.ProcessEnv) {
  const shutdownTimeoutMs = integer(env, 'WAYBILL_SHUTDOWN_TIMEOUT_SECONDS', 10, 1, 3600) * 1000;
  const shutdownGraceMs = integer(env, 'WAYBILL_SHUTDOWN_GRACE_SECONDS', 1, 0, 3600) * 1000;
  if (shutdownGraceMs > shutdownTimeoutMs) {
    throw new ConfigError('WAYBILL_SHUTDOWN_GRACE_SECONDS must not be more than WAYBILL_SHUTDOWN_TIMEOUT_SECONDS');
  }
  return { shutdownTimeoutMs, shutdownGraceMs };
}

function notificationConfig(env: NodeJS.ProcessEnv): NotificationConfig {
  const smtpUrl = optional(env, 'WAYBILL_SMTP_URL');
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new ConfigError('WAYBILL_SMTP_URL must start with smtp:// or smtps://');
  if ((smtpUrl === null) !== (optional(env, 'WAYBILL_SMTP_FROM') === null)) {
    throw new ConfigError('WAYBILL_SMTP_URL and WAYBILL_SMTP_FROM must be set together (the SMTP server and the default sender)');
  }
  const dkimDomain = optional(env, 'WAYBILL_DKIM_DOMAIN');
  const dkimSelector = optional(env, 'WAYBILL_DKIM_SELECTOR');
  const dkimKeyFile = optional(env, 'WAYBILL_DKIM_PRIVATE_KEY_FILE');
  const dkimKey = optional(env, 'WAYBILL_DKIM_PRIVATE_KEY') ?? (dkimKeyFile ? readKeyFile(dkimKeyFile) : null);
  const dkimParts = [dkimDomain, dkimSelector, dkimKey].filter((part) => part !== null).length;
  if (dkimParts !== 0 && dkimParts !== 3) {
    throw new ConfigError('WAYBILL_DKIM_DOMAIN, WAYBILL_DKIM_SELECTOR and WAYBILL_DKIM_PRIVATE_KEY(_FILE) must be set together');
  }
  return {
    smtpUrl,
    smtpFrom: optional(env, 'WAYBILL_SMTP_FROM'),
    smtpPoolSize: integer(env, 'WAYBILL_SMTP_POOL_SIZE', 5, 1, 100),
    dkim: dkimDomain && dkimSelector && dkimKey ? { domainName: dkimDomain, keySelector: dkimSelector, privateKey: dkimKey } : null,
    twilioBaseUrl: (optional(env, 'WAYBILL_SMS_TWILIO_BASE_URL') ?? 'https://api.twilio.com').replace(/\/+$/, ''),
    recipientLimitPerHour: integer(env, 'WAYBILL_NOTIFICATION_RECIPIENT_LIMIT_PER_HOUR', 10, 1, 10_000),
  };
}

function readKeyFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`WAYBILL_DKIM_PRIVATE_KEY_FILE cannot be read: ${(error as Error).message}`);
  }
}

function connectionLimits(env: NodeJS.ProcessEnv) {
  const requestTimeoutMs = integer(env, 'WAYBILL_REQUEST_TIMEOUT_SECONDS', 30, 1, 3600) * 1000;
  const headersTimeoutMs = integer(env, 'WAYBILL_HEADERS_TIMEOUT_SECONDS', 10, 1, 3600) * 1000;
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError('WAYBILL_HEADERS_TIMEOUT_SECONDS must not be more than WAYBILL_REQUEST_TIMEOUT_SECONDS');
  }
  const connectionTimeoutMs = integer(env, 'WAYBILL_CONNECTION_TIMEOUT_SECONDS', 60, 5, 3600) * 1000;
  const carrierWait = carrierWaitBudget(connectionTimeoutMs);
  checkCarrierTimeouts(env, carrierWait);
  return {
    requestTimeoutMs,
    headersTimeoutMs,
    connectionTimeoutMs,
    keepAliveTimeoutMs: integer(env, 'WAYBILL_KEEP_ALIVE_TIMEOUT_SECONDS', 72, 1, 3600) * 1000,
    carrierWait,
  };
}

/**
 * A carrier's own timeout (`WAYBILL_CARRIER_<ID>_TIMEOUT_SECONDS`, how long a booking call waits for it) must fit
 * in what a booking may wait: longer, the server would close the merchant's connection before the answer. Such
 * a setting is refused at start-up, naming the socket timeout that would fit it.
 */
function checkCarrierTimeouts(env: NodeJS.ProcessEnv, budget: CarrierWaitBudget): void {
  for (const name of Object.keys(env).sort()) {
    if (!/^WAYBILL_CARRIER_[A-Z0-9]+_TIMEOUT_SECONDS$/.test(name) || optional(env, name) === null) continue;
    const seconds = integer(env, name, 0, 1, 600);
    if (seconds * 1000 <= budget.bookingCallMs) continue;
    let fits = 5;
    while (carrierWaitBudget(fits * 1000).bookingCallMs < seconds * 1000) fits++;
    const connection = (budget.requestMs + budget.answerMs) / 1000;
    throw new ConfigError(
      `${name} (${seconds} s) is longer than a booking may wait on its carrier: WAYBILL_CONNECTION_TIMEOUT_SECONDS ` +
        `(${connection} s) less ${budget.answerMs / 1000} s to write the answer and ${budget.lookupMs / 1000} s to ask the ` +
        `carrier after a lost answer leaves ${budget.bookingCallMs / 1000} s. Lower ${name}, or raise ` +
        `WAYBILL_CONNECTION_TIMEOUT_SECONDS to at least ${fits}.`,
    );
  }
}
