import { randomUUID } from 'node:crypto';
import type { CarrierError } from '../carrier.js';
import type { CarrierResponse } from '../sdk/http.js';
import { nextReset } from '../sdk/limits.js';
import type { FedexTrackRequest } from './fdxglb.payload.js';

/**
 * How FedEx's Track API is called: paths, headers and request bodies, and how its throttling answers read.
 * docs/carriers/fdxglb.md has the sources.
 */

export const TOKEN_PATH = '/oauth/token';
export const TRACK_PATH = '/track/v1/trackingnumbers';
export const DOCUMENTS_PATH = '/track/v1/trackingdocuments';

/** FedEx localizes descriptions by `x-locale`; one fixed locale keeps stored texts in one language. */
export const LOCALE = 'en_US';

/**
 * Headers of every Track API call besides the bearer token: JSON, the locale, and a fresh
 * `x-customer-transaction-id` that FedEx echoes in its answer (it ties a logged answer to its request).
 */
export function trackHeaders(): Record<string, string> {
  return { 'content-type': 'application/json', 'x-locale': LOCALE, 'x-customer-transaction-id': `waybill-${randomUUID()}` };
}

/** The request body for up to 30 numbers, with every scan. */
export function trackRequest(numbers: readonly string[]): FedexTrackRequest {
  return {
    includeDetailedScans: true,
    trackingInfo: numbers.map((number) => ({ trackingNumberInfo: { trackingNumber: number.replace(/\s+/g, '') } })),
  };
}

/** FedEx answers a spent daily quota with a 429 whose message says so ("Daily transaction quota exceeded"). */
export function isQuotaAnswer(response: CarrierResponse): boolean {
  return response.status === 429 && /quota/i.test(response.text());
}

/** Seconds FedEx's own rate throttle lasts: the rest of its 10-second window, at most. */
const RATE_WINDOW_SECONDS = 10;

/**
 * Fills in the pause FedEx documents when its 429 has no `Retry-After`: a rate throttle ends with its
 * 10-second window, a spent quota at midnight GMT.
 */
export function withDocumentedPause(error: CarrierError, nowMs: number, quotaResetUtc: string): CarrierError {
  if (!error.throttled || error.retry_after_seconds !== undefined) return error;
  const seconds =
    error.throttled === 'quota' ? Math.max(1, Math.ceil((nextReset(nowMs, quotaResetUtc) - nowMs) / 1000)) : RATE_WINDOW_SECONDS;
  return { ...error, retry_after_seconds: seconds };
}
