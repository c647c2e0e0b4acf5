import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type ChildServer, childEnv, freePort, type Measurement, startChild } from './harness.js';

/** A whole number from the environment (scenario sizes), or the default. */
export function envInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return value;
}

export function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
}

/** The middle value of a run's rounds (the upper one of an even count). */
export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** A Measurement from per-operation latencies (ms): rate over `seconds`, p50 and p99. */
export function latencyMeasurement(label: string, latencies: number[], count: number, seconds: number, decimals = 2): Measurement {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    label,
    url: '',
    requestsPerSecond: count / seconds,
    latencyP50Ms: round(percentile(sorted, 0.5), decimals),
    latencyP99Ms: round(percentile(sorted, 0.99), decimals),
    totalRequests: count,
  };
}

export async function json<T>(res: Response, expected: number, what: string): Promise<T> {
  if (res.status !== expected) throw new Error(`${what}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export interface Service extends ChildServer {
  adminToken: string;
}

/**
 * Node's flags for the service: those `npm start` gives it (package.json's start script), so that the bench runs
 * what ships, then BENCH_SERVICE_FLAGS (space-separated, e.g. `--max-semi-space-size=64`, or
 * `--v8-pool-size=4` for Node's default pool) to compare settings: of a flag given twice, the last counts.
 */
function serviceFlags(): string[] {
  return [...startScriptFlags(), ...(process.env.BENCH_SERVICE_FLAGS ?? '').split(/\s+/).filter(Boolean)];
}

/**
 * The flags the start script of `root`'s package.json (this checkout's by default) passes to node before
 * `dist/main.js`.
 */
export function startScriptFlags(root = path.resolve(import.meta.dirname, '..')): string[] {
  const packageFile = path.join(root, 'package.json');
  const script: string = JSON.parse(fs.readFileSync(packageFile, 'utf8')).scripts.start;
  const words = script.trim().split(/\s+/);
  const main = words.indexOf('dist/main.js');
  if (words[0] !== 'node' || main < 0) throw new Error(`package.json's start script is not "node [flags] dist/main.js …": ${script}`);
  return words.slice(1, main);
}

/**
 * Settings to start the service with, to compare them (BENCH_SERVICE_ENV, space-separated NAME=value pairs, e.g.
 * `WAYBILL_PG_PREPARED_STATEMENTS=false`); the runner's own environment is not passed on to the service.
 */
function serviceSettings(): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const pair of (process.env.BENCH_SERVICE_ENV ?? '').split(/\s+/).filter(Boolean)) {
    const at = pair.indexOf('=');
    if (at < 1) throw new Error(`BENCH_SERVICE_ENV: "${pair}" is not NAME=value`);
    settings[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return settings;
}

/**
 * The built service as a child process on `dataDir`: `start` (API and worker) or `serve` (API only).
 * The admin token is fixed by the caller, so a restart on the same data dir keeps it.
 */
export async function startService(options: {
  dataDir: string;
  adminToken: string;
  command?: 'start' | 'serve';
  /** Arguments after the command (`--workers 2`). */
  commandArgs?: string[];
  nodeArgs?: string[];
  /** PostgreSQL instead of SQLite in dataDir. */
  databaseUrl?: string;
  /** The per-account limit; by default high enough that the limiter counts but never refuses. */
  rateLimitPerSecond?: number;
  env?: Record<string, string>;
}): Promise<Service> {
  const port = await freePort();
  const server = await startChild({
    label: 'waybill',
    args: [...serviceFlags(), ...(options.nodeArgs ?? []), 'dist/main.js', options.command ?? 'start', ...(options.commandArgs ?? [])],
    env: childEnv({
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      WAYBILL_DATA_DIR: options.dataDir,
      WAYBILL_ADMIN_TOKEN: options.adminToken,
      WAYBILL_RATE_LIMIT_PER_SECOND: String(options.rateLimitPerSecond ?? 1_000_000),
      WAYBILL_BANNER: 'false',
      LOG_LEVEL: 'warn',
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      ...options.env,
      ...serviceSettings(),
    }),
    port,
    readyPath: '/healthz',
    timeoutMs: 60_000,
  });
  return { ...server, adminToken: options.adminToken };
}

export function newAdminToken(): string {
  return `wbadm_${randomBytes(16).toString('hex')}`;
}

/** The bare Fastify route answering `bodyFile` on `route`, as a child process. */
export async function startBaseline(route: string, bodyFile: string, method: 'GET' | 'POST' = 'GET'): Promise<ChildServer> {
  const port = await freePort();
  return startChild({
    label: 'baseline',
    args: ['--import', 'tsx', path.join('bench', 'baseline-server.ts')],
    env: childEnv({
      NODE_ENV: 'production',
      PORT: String(port),
      BASELINE_ROUTE: route,
      BASELINE_BODY_FILE: bodyFile,
      BASELINE_METHOD: method,
    }),
    port,
    readyPath: route,
  });
}

export const CARRIER_REFERENCE = 'bench-sandbox';

/**
 * An account (features returns and booking) with credentials and one sandbox carrier configuration, made
 * through the admin API; returns a bearer token for the merchant API.
 */
export async function seedAccount(
  url: string,
  adminToken: string,
): Promise<{ token: string; accountUuid: string; clientId: string; clientSecret: string }> {
  const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const account = await json<{ account_uuid: string }>(
    await fetch(`${url}/admin/v1/accounts/`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'bench', features: ['returns', 'booking'] }),
    }),
    201,
    'create account',
  );
  const accountPath = `${url}/admin/v1/accounts/${account.account_uuid}`;
  const creds = await json<{ client_id: string; client_secret: string }>(
    await fetch(`${accountPath}/credentials/`, { method: 'POST', headers: { authorization: admin.authorization } }),
    201,
    'create credentials',
  );
  await json(
    await fetch(`${accountPath}/carrier-configs/`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ carrier_reference: CARRIER_REFERENCE, carrier_id: 'sandbx', booking: ['outbound'] }),
    }),
    201,
    'create carrier config',
  );
  const token = await json<{ access_token: string }>(
    await fetch(`${url}/auth/oauth/token/`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${creds.client_id}:${creds.client_secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    }),
    200,
    'token',
  );
  return { token: token.access_token, accountUuid: account.account_uuid, clientId: creds.client_id, clientSecret: creds.client_secret };
}

/** How create bodies name a first custom field: `same`, `new`, `late` (see `withCustomFieldKey`) or not at all. */
export type CustomFieldKey = 'same' | 'new' | 'late' | undefined;

/** The naming of an environment variable (unset or empty: none). */
export function customFieldKeyFrom(name: string, raw = process.env[name]): CustomFieldKey {
  if (raw === undefined || raw === '') return undefined;
  if (raw !== 'same' && raw !== 'new' && raw !== 'late') throw new Error(`${name} must be same, new or late, got "${raw}"`);
  return raw;
}

/**
 * A create body with a first key in its `additional_info` (custom fields, three then): `k000000000` in every create
 * (`same`), one no create sent before (`new`: `k` and `unique`, as long), as merchants whose custom fields are named
 * after their own records send, or `l000000000` in every create (`late`: alike, for creates sent after others
 * named otherwise). Each object parsed from JSON with keys of its own gets a shape (map) of its own in V8, and
 * past 1,536 of them with as many members, alive or dead since the last full collection, the next object of that
 * size with a first key not seen before no longer shares one with the next of its kind.
 */
export function withCustomFieldKey(body: Record<string, unknown>, key: CustomFieldKey, unique: number): Record<string, unknown> {
  if (key === undefined) return body;
  const name = key === 'late' ? 'l000000000' : `k${String(key === 'new' ? unique : 0).padStart(9, '0')}`;
  return { ...body, additional_info: { [name]: 'custom', ...(body.additional_info as object) } };
}

/**
 * A realistic create body: recipient and sender addresses, three line items, value, weight, dimensions,
 * an order, tags and a notification address. `sequence` makes shipment_id, order_id and tracking number unique.
 */
export function shipmentBody(runId: string, sequence: number, trackingPrefix = 'WB2'): Record<string, unknown> {
  const n = String(sequence).padStart(7, '0');
  return {
    shipment_id: `${runId}-${n}`,
    tracking_number: `${trackingPrefix}${runId.toUpperCase()}${n}`,
    carrier_reference: CARRIER_REFERENCE,
    shipment_reference: `REF-${n}`,
    order_id: `ORD-${runId}-${n}`,
    order_reference: `#${100_000 + sequence}`,
    order_source_type: 'webshop',
    order_source_name: 'Shopify',
    recipient_address: {
      first_name: 'Zoë',
      last_name: 'van der Berg',
      street_name: 'Keizersgracht',
      house_number: '452',
      postal_code: '1016 GD',
      city: 'Amsterdam',
      country_code: 'NL',
      email: 'zoe.vanderberg@example.com',
      phone: `+3120${n}`,
    },
    sender_address: {
      company: 'Acme Versand GmbH',
      street_name: 'Friedrichstraße',
      house_number: '123',
      postal_code: '10117',
      city: 'Berlin',
      country: 'Germany',
      phone: '+493012345678',
    },
    tags: ['bench', 'eu'],
    notification_email: ['zoe.vanderberg@example.com'],
    shipment_value: { amount: 129.85, currency: 'EUR' },
    total_shipping_cost: { amount: 6.95, currency: 'EUR' },
    weight: { amount: 1850 },
    dimensions: { length: 40, width: 30, height: 15 },
    item_count: 4,
    shipping_service: 'Parcel Standard',
    description_of_goods: 'Clothing',
    sales_channel: 'web',
    additional_info: { warehouse: 'BER-1', priority: false },
    line_items: [
      {
        product_name: 'Merino crew neck, navy, M',
        product_id: 'P-1001',
        product_reference: 'SKU-MCN-NAVY-M',
        quantity: 2,
        currency_code: 'EUR',
        product_cost: 49.95,
        total_price: 99.9,
        product_origin_country_code: 'PT',
        hs_code: '611010',
      },
      {
        product_name: 'Canvas tote bag',
        product_id: 'P-2040',
        product_reference: 'SKU-TOTE-NAT',
        quantity: 1,
        currency_code: 'EUR',
        product_cost: 14.95,
        total_price: 14.95,
        product_origin_country_code: 'IN',
        hs_code: '420222',
      },
      {
        product_name: 'Wool socks, 3 pairs',
        product_id: 'P-3307',
        product_reference: 'SKU-SOCK-3P',
        quantity: 1,
        currency_code: 'EUR',
        product_cost: 15,
        total_price: 15,
        product_origin_country_code: 'DE',
        hs_code: '611595',
      },
    ],
  };
}

/** Waits until `done()` holds, looking every 20 ms, for at most `timeoutMs` (then returns anyway). */
export async function waitFor(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}
