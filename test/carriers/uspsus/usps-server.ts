import fs from 'node:fs';
import path from 'node:path';
import { CarrierServer, type ReceivedRequest, type ScriptedReply } from '../support/carrier-server.js';

export const TOKEN_PATH = '/oauth2/v3/token';
export const TRACK_PATH = '/tracking/v3r2/tracking';
export const SETTINGS = { client_id: 'usps-test-consumer-key', client_secret: 'usps-test-consumer-secret-0042' } as const;

export function fixture(name: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../fixtures/uspsus', `${name}.json`), 'utf8'));
}

/** The `TrackingDetail`s of the fixtures that answer with found items, by tracking number. */
function catalogue(): Map<string, unknown[]> {
  const items = new Map<string, unknown[]>();
  for (const name of ['delivered', 'attempt-pickup', 'return', 'exceptions', 'dst', 'multi-status', 'empty-events', 'international']) {
    for (const item of fixture(name) as Array<{ trackingNumber?: unknown; statusCode?: unknown }>) {
      if (typeof item.trackingNumber !== 'string' || (item.statusCode !== undefined && item.statusCode !== '200')) continue;
      items.set(item.trackingNumber, [...(items.get(item.trackingNumber) ?? []), item]);
    }
  }
  return items;
}

/** The numbers a tracking request asks for (its JSON array of `{ trackingNumber }`). */
export function askedNumbers(request: ReceivedRequest): string[] {
  const body = JSON.parse(request.body) as Array<{ trackingNumber: string }>;
  return body.map((entry) => entry.trackingNumber);
}

/**
 * USPS Tracking 3.2 as the spec describes it: every found item with HTTP 200, or a 207 multi-status with a
 * `SuccessResponse` per found item and a `FailureResponse` (404, code 150002) per unknown number.
 */
export function trackingReply(request: ReceivedRequest, items = catalogue()): ScriptedReply {
  const numbers = askedNumbers(request);
  const missing = numbers.filter((n) => !items.has(n));
  if (missing.length === 0) return { body: numbers.flatMap((n) => items.get(n) ?? []) };
  return {
    status: 207,
    body: numbers.flatMap((n) =>
      items.has(n)
        ? (items.get(n) ?? []).map((item) => ({ statusCode: '200', ...(item as object) }))
        : [
            {
              statusCode: '404',
              trackingNumber: n,
              apiVersion: '/tracking/v3r2',
              error: { code: '404', message: 'Not Found', errors: [{ status: '404', code: '150002', title: 'Not Found' }] },
            },
          ],
    ),
  };
}

/** A local USPS: the token endpoint and Tracking 3.2 answering from the fixtures (or `reply` when given). */
export async function uspsServer(reply?: (request: ReceivedRequest) => ScriptedReply): Promise<CarrierServer> {
  const items = catalogue();
  let issued = 0;
  return new CarrierServer()
    .on('POST', TOKEN_PATH, () => ({ body: { ...(fixture('token') as object), access_token: `usps-access-token-${++issued}` } }))
    .on('POST', TRACK_PATH, (request) => (reply ? reply(request) : trackingReply(request, items)))
    .start();
}

/**
 * A clock that runs 100,000 times faster than the wall clock: USPS's one call a minute becomes one every
 * 0.6 ms, so suites that poll twice do not wait for the hourly quota.
 */
export function fastClock(): () => number {
  const start = Date.now();
  return () => start + (Date.now() - start) * 100_000;
}

/** A clock tests move by hand. */
export function manualClock(start = Date.parse('2026-11-23T10:00:00Z')): { now: () => number; advance(ms: number): void } {
  let at = start;
  return { now: () => at, advance: (ms) => (at += ms) };
}
