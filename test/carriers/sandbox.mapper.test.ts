import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProofOfDelivery, TrackResult } from '../../src/carriers/carrier.js';
import { EVENTS } from '../../src/carriers/phases.js';
import { mapFileResponse, mapLocation, mapScansResponse, SANDBOX_EVENT_KEYS, scanTime } from '../../src/carriers/sandbox/sandbox.mapper.js';
import type { SandboxResponse, SandboxScan } from '../../src/carriers/sandbox/sandbox.payload.js';
import { SANDBOX_CODES } from '../../src/carriers/sandbox/sandbox.payload.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'sandbox');

function fixture<T>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as T;
}

const stubProofOfDelivery = (documentId: string): ProofOfDelivery => ({
  reference: documentId,
  file_name: `${documentId}.png`,
  content_type: 'image/png',
  fetch: async () => ({ status: 'ok', content: Buffer.alloc(0) }),
});

/** The result as plain data (the download function left out), comparable with a saved record. */
function asRecord(result: TrackResult): unknown {
  if (result.status !== 'ok' || !result.proof_of_delivery) return result;
  const { fetch: _fetch, ...proof } = result.proof_of_delivery;
  return { ...result, proof_of_delivery: proof };
}

describe('sandbox mapper: saved payloads', () => {
  it.each([
    ['delivered', 'WB4000004'],
    ['in-transit', 'WB2000002'],
  ])('maps the saved %s payload to the expected records', (name, trackingNumber) => {
    const response = fixture<SandboxResponse>(`${name}.response.json`);
    const result = mapScansResponse(trackingNumber, response, stubProofOfDelivery);
    expect(asRecord(result)).toEqual(fixture(`${name}.expected.json`));
  });

  it('maps a carrier 404 to not found', () => {
    const result = mapScansResponse('WB7000007', fixture<SandboxResponse>('not-found.response.json'));
    expect(result).toEqual({ status: 'not_found', tracking_number: 'WB7000007' });
  });

  it('maps a 429 to a retryable error carrying Retry-After', () => {
    const result = mapScansResponse('WB9000009', fixture<SandboxResponse>('throttled.response.json'));
    expect(result).toEqual({
      status: 'error',
      tracking_number: 'WB9000009',
      retryable: true,
      retry_after_seconds: 30,
      message: 'Sandbox carrier throttled the request (RATE_LIMITED)',
    });
  });

  it('maps a timeout to a retryable error without a retry hint', () => {
    const result = mapScansResponse('WB9000009', fixture<SandboxResponse>('timeout.response.json'));
    expect(result).toEqual({
      status: 'error',
      tracking_number: 'WB9000009',
      retryable: true,
      message: 'Sandbox carrier did not answer within 10000 ms',
    });
  });

  it('maps a hand-written payload: unknown code, correction, date-only, unusable scan and estimate', () => {
    const result = mapScansResponse('WB4HAND01', fixture<SandboxResponse>('amended.response.json'), stubProofOfDelivery);
    expect(result).toEqual({
      status: 'ok',
      tracking_number: 'WB4HAND01',
      events: [
        {
          event: 'Held at depot awaiting vehicle space',
          event_key: null,
          phase_key: null,
          time: '2026-03-29',
          timezone: null,
          location: null,
          additional_info: { carrier_code: 'HLD', carrier_description: 'Held at depot awaiting vehicle space' },
        },
        {
          event: 'Delivered',
          event_key: 'delivered',
          phase_key: 'delivered',
          time: '2026-03-29T14:02:00',
          timezone: 'Europe/London',
          location: {
            place: 'Manchester, GB',
            full: 'Manchester, M1 1PY, United Kingdom',
            formatted_address: 'Manchester, M1 1PY, United Kingdom',
            location_type: 'address',
            line1: null,
            line2: null,
            line3: null,
            postal_code: 'M1 1PY',
            city: 'Manchester',
            state_or_province: null,
            region: null,
            country: 'United Kingdom',
            country_code: 'GB',
            longitude: '-2.2426',
            latitude: '53.4808',
            timezone: 'Europe/London',
          },
          additional_info: { carrier_code: 'DLV', carrier_description: 'Delivered to recipient' },
        },
        {
          event: 'Returning to sender',
          event_key: 'returning_to_sender',
          phase_key: 'return_to_sender',
          time: '2026-03-30T08:10:00-04:00',
          timezone: 'America/New_York',
          location: {
            place: 'New York, US',
            full: 'Maspeth Station, 56-02 48th Street, New York, NY 11378, United States',
            formatted_address: '56-02 48th Street, New York, NY 11378, United States',
            location_type: 'depot',
            line1: '56-02 48th Street',
            line2: null,
            line3: null,
            postal_code: '11378',
            city: 'New York',
            state_or_province: 'NY',
            region: null,
            country: 'United States',
            country_code: 'US',
            longitude: '-73.9211',
            latitude: '40.7287',
            timezone: 'America/New_York',
          },
          additional_info: { carrier_code: 'RTS', carrier_description: 'Delivery scan withdrawn, being returned to sender' },
          correction: true,
        },
      ],
    });
  });
});

describe('sandbox mapper: responses', () => {
  const ok = (body: unknown): SandboxResponse => ({ outcome: 'response', status: 200, headers: {}, body });

  it('treats server errors as retryable and credential errors as final', () => {
    const serverError = mapScansResponse('X', { outcome: 'response', status: 503, headers: {}, body: null });
    expect(serverError).toMatchObject({
      status: 'error',
      retryable: true,
      message: 'Sandbox carrier failed with HTTP 503 (no error code)',
    });
    const denied = mapScansResponse('X', {
      outcome: 'response',
      status: 401,
      headers: {},
      body: { error: { code: 'BAD_KEY', message: '' } },
    });
    expect(denied).toMatchObject({ status: 'error', retryable: false });
  });

  it('does not take a 404 for another reason as "not found"', () => {
    const result = mapScansResponse('X', {
      outcome: 'response',
      status: 404,
      headers: {},
      body: { error: { code: 'NO_ROUTE', message: '' } },
    });
    expect(result).toMatchObject({ status: 'error', retryable: false, message: 'Sandbox carrier answered HTTP 404 (NO_ROUTE)' });
  });

  it('reports a malformed success payload as a final error', () => {
    expect(mapScansResponse('X', ok({ shipments: [] }))).toMatchObject({ status: 'error', retryable: false });
    expect(mapScansResponse('X', ok(null))).toMatchObject({ status: 'error', retryable: false });
  });

  it('ignores an unparseable Retry-After', () => {
    const result = mapScansResponse('X', { outcome: 'response', status: 429, headers: { 'retry-after': 'soon' }, body: {} });
    expect(result).toEqual({
      status: 'error',
      tracking_number: 'X',
      retryable: true,
      message: 'Sandbox carrier throttled the request (no error code)',
    });
  });

  it('announces a proof of delivery only when a factory is given', () => {
    const body = (fixture<SandboxResponse>('delivered.response.json') as { body: unknown }).body;
    expect(mapScansResponse('WB4000004', ok(body))).not.toHaveProperty('proof_of_delivery');
  });

  it('maps document downloads', () => {
    const png = Buffer.from([1, 2, 3]);
    expect(mapFileResponse({ outcome: 'response', status: 200, contentType: 'image/png', content: png })).toEqual({
      status: 'ok',
      content: png,
    });
    expect(
      mapFileResponse({
        outcome: 'response',
        status: 404,
        contentType: 'application/json',
        body: { error: { code: 'DOCUMENT_NOT_FOUND', message: '' } },
      }),
    ).toMatchObject({ status: 'error', retryable: false });
  });
});

describe('sandbox mapper: codes and fields', () => {
  it('maps every sandbox code except XDK to a standard event key', () => {
    const unmapped = SANDBOX_CODES.filter((code) => !(code in SANDBOX_EVENT_KEYS));
    expect(unmapped).toEqual(['XDK']);
    for (const key of Object.values(SANDBOX_EVENT_KEYS)) expect(EVENTS).toHaveProperty(key);
  });

  it('writes time texts of each precision', () => {
    const scan: SandboxScan = { code: 'ARR', text: '', date: '2026-03-29', time: '10:15:00', utcOffset: '+02:00', location: null };
    expect(scanTime(scan)).toBe('2026-03-29T10:15:00+02:00');
    expect(scanTime({ ...scan, utcOffset: null })).toBe('2026-03-29T10:15:00');
    expect(scanTime({ ...scan, time: null })).toBe('2026-03-29');
  });

  it('formats addresses by country convention', () => {
    const base = {
      facility: 'Depot',
      type: 'depot' as const,
      street: 'Billstraße 28',
      postcode: '20539',
      city: 'Hamburg',
      state: null,
      country: 'Germany',
      countryCode: 'DE',
      lat: 53.5423,
      lon: 10.0714,
      tz: 'Europe/Berlin',
    };
    expect(mapLocation(base).formatted_address).toBe('Billstraße 28, 20539 Hamburg, Germany');
    expect(mapLocation({ ...base, type: 'service_point' }).location_type).toBe('pickup_point');
  });
});
