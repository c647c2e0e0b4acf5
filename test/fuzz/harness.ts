import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { bookableShipment } from '../booking/fixtures.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { standardReturn } from '../returns/fixtures.js';
import type { JsonSchema } from './schema-arbitrary.js';

export const COUNTED_TABLES = [
  'shipments',
  'orders',
  'returns',
  'bookings',
  'documents',
  'tracking_events',
  'webhook_endpoints',
  'accounts',
  'api_credentials',
  'carrier_configs',
] as const;

export type RowCounts = Record<(typeof COUNTED_TABLES)[number], number>;

export async function rowCounts(t: TestApp): Promise<RowCounts> {
  const db = t.context.database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const counts = await Promise.all(
    COUNTED_TABLES.map((table) =>
      db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ),
  );
  return Object.fromEntries(COUNTED_TABLES.map((table, i) => [table, Number(counts[i].n)])) as RowCounts;
}

/** What must never appear in a response: stack frames, file paths, driver and runtime messages. */
const LEAKS = [
  /\bat [\w.<>]+ \(.*:\d+:\d+\)/,
  /node_modules/,
  /\/src\/[\w/-]+\.(ts|js)/,
  /\.ts:\d+/,
  /SQLITE_/,
  /\bsqlite3?\b/i,
  /syntax error at or near/,
  /violates (unique|foreign key|not-null|check) constraint/,
  /duplicate key value/,
  /\b(TypeError|ReferenceError|RangeError|SyntaxError):/,
  /Cannot read propert/,
  /is not a function/,
  /Maximum call stack/,
  /FST_ERR/,
  /\bkysely\b/i,
];

export function leaksIn(body: string): RegExp | undefined {
  return LEAKS.find((re) => re.test(body));
}

export interface Outcome {
  status: number;
  body: string;
}

/**
 * The invariants every answer keeps: never a 5xx; a refusal is the envelope (`api_response` a "4xxx" string or
 * the integer 403/429, a string `message`); a 4030 names fields (in `errors`, or `data.errors` on the booking
 * endpoint), each a field of the request or a key the caller sent; no internals in any body.
 */
export function checkAnswer(
  res: LightMyRequestResponse,
  context: { label: string; knownFields?: Iterable<string>; sentKeys?: Iterable<string>; bookingShape?: boolean },
): void {
  const where = `${context.label} → ${res.statusCode} ${res.body.slice(0, 500)}`;
  expect(res.statusCode, where).toBeLessThan(500);
  expect(leaksIn(res.body), where).toBeUndefined();
  if (res.statusCode < 400) return;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(res.body);
  } catch {
    throw new Error(`refusal is not JSON: ${where}`);
  }
  const code = body.api_response;
  const envelopeCode = (typeof code === 'string' && /^4\d{3}$/.test(code)) || code === 403 || code === 429;
  expect(envelopeCode, where).toBe(true);
  expect(typeof body.message, where).toBe('string');
  if (code === '4030') {
    const errors = (context.bookingShape ? (body.data as Record<string, unknown> | undefined)?.errors : body.errors) as
      | Record<string, unknown>
      | undefined;
    expect(errors && typeof errors === 'object', where).toBe(true);
    const named = Object.keys(errors ?? {});
    expect(named.length, where).toBeGreaterThan(0);
    const allowed = new Set<string>(['non_field_errors', ...(context.knownFields ?? []), ...(context.sentKeys ?? [])]);
    for (const field of named) expect(allowed.has(field), `${where}: unexpected error key ${field}`).toBe(true);
  }
}

export function expectNothingPersisted(before: RowCounts, after: RowCounts, label: string): void {
  expect(after, `${label}: refused, yet rows changed`).toEqual(before);
}

/** One account with every feature, a bookable carrier, and one of everything to aim requests at. */
export interface FuzzWorld {
  t: TestApp;
  acct: TestAccount;
  shipmentUuid: string;
  shipmentId: string;
  returnUuid: string;
  documentUuid: string;
  webhookUuid: string;
}

export async function createFuzzWorld(): Promise<FuzzWorld> {
  const t = await createTestApp({ env: { WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true' } });
  const acct = await t.account({
    features: ['returns', 'booking'],
    carriers: [{ carrier_reference: 'sb', booking: ['outbound', 'return'], settings: { poll_interval_seconds: 60 } }],
  });
  const call = (method: InjectOptions['method'], url: string, body?: unknown, query?: Record<string, string>) =>
    t.call(acct.token, method, url, body, query);
  const shipment = await call('POST', '/v5/shipment/', bookableShipment('FZ-1', { tracking_number: 'WB4000001', carrier_reference: 'sb' }));
  expect(shipment.statusCode, shipment.body).toBe(200);
  const open = await call('POST', '/v5/shipment/', bookableShipment('FZ-2'));
  expect(open.statusCode, open.body).toBe(200);
  const booking = await call('POST', '/v5/booking/', { shipment_id: 'FZ-2', carrier_reference: 'sb' });
  expect(booking.statusCode, booking.body).toBe(200);
  const ret = await call('POST', '/v5/return/', standardReturn('FZ-R1'));
  expect(ret.statusCode, ret.body).toBe(200);
  const webhook = await call('POST', '/v5/webhooks/', { url: 'https://127.0.0.1:9/hook' });
  expect(webhook.statusCode, webhook.body).toBe(201);
  return {
    t,
    acct,
    shipmentUuid: shipment.json().data.shipment_uuid,
    shipmentId: 'FZ-1',
    returnUuid: ret.json().data.return_ticket.return_uuid,
    documentUuid: booking.json().data.documents[0].document_uuid,
    webhookUuid: webhook.json().data.webhook_uuid,
  };
}

export interface Operation {
  method: string;
  path: string;
  body?: JsonSchema;
  bodyRequired: boolean;
  contentType?: string;
  query: Record<string, { schema: JsonSchema; required: boolean }>;
  params: Record<string, JsonSchema>;
}

/** Every operation of the API, with its request schemas, as the service publishes them. */
export async function operations(t: TestApp): Promise<Operation[]> {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<string, Record<string, any>>;
  };
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const content = op.requestBody?.content ?? {};
      const contentType = Object.keys(content)[0];
      const query: Operation['query'] = {};
      const params: Operation['params'] = {};
      for (const p of op.parameters ?? []) {
        if (p.in === 'query') query[p.name] = { schema: p.schema, required: Boolean(p.required) };
        if (p.in === 'path') params[p.name] = p.schema;
      }
      out.push({
        method: method.toUpperCase(),
        path,
        body: contentType ? content[contentType].schema : undefined,
        bodyRequired: Boolean(op.requestBody?.required),
        contentType,
        query,
        params,
      });
    }
  }
  return out;
}

/** A query-string value as a client would send it; values that cannot be encoded go as raw bytes. */
export function encodeQueryValue(value: unknown): string {
  const text = typeof value === 'string' ? value : value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
  try {
    return encodeURIComponent(text);
  } catch {
    // Lone surrogates: send the invalid UTF-8 a broken client would.
    return '%ED%A0%80';
  }
}

export function queryString(values: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const list = Array.isArray(value) && value.length > 0 && value.length < 5 ? value : [value];
    for (const v of list) parts.push(`${encodeQueryValue(key)}=${encodeQueryValue(v)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}
