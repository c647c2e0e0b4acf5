import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CarrierAdapter, TrackResult } from '../../src/carriers/carrier.js';
import { eventKey } from '../../src/carriers/event-key.js';
import { parseEventTime } from '../../src/core/event-time.js';
import { requestsFor } from './support/kit.js';

/** One fixture of a carrier: a running local server with it, the adapter pointed there, and the numbers to ask. */
export interface ContractFixture {
  /** Starts the fixture's local server and an adapter pointed at it. */
  start(): Promise<{ adapter: CarrierAdapter; settings: Record<string, unknown>; close(): Promise<void> }>;
  /** Numbers to ask in one `track` call (found, not found, whatever the fixture holds). */
  numbers: string[];
  /** Values that must appear in no result (the credentials the fixture configures). */
  secrets: string[];
}

export interface CarrierContract {
  carrierId: string;
  fixtures: Record<string, ContractFixture>;
  /**
   * The adapter's pure mapping from the carrier's parsed JSON (one response body) to results; it must
   * never throw, whatever the JSON.
   */
  mapAnyJson(body: unknown): unknown;
}

/**
 * The contract every adapter keeps, run over each of its fixtures: one result per request in request
 * order; `track` never rejects; events oldest first; every time parses; `carrier_code` set; event keys
 * stable across two identical polls; no secret in any result; the mapper never throws on arbitrary JSON.
 */
export function carrierContract(contract: CarrierContract): void {
  describe(`${contract.carrierId}: the carrier contract`, () => {
    for (const [name, fixture] of Object.entries(contract.fixtures)) {
      it(`${name}: one result per request, in order, oldest first, readable times, stable keys, no secrets`, async () => {
        const { adapter, settings, close } = await fixture.start();
        try {
          expect(adapter.record.id).toBe(contract.carrierId);
          const requests = requestsFor(...fixture.numbers);
          const first = await adapter.track(requests, settings, { now: new Date() });
          const second = await adapter.track(requests, settings, { now: new Date() });
          for (const results of [first, second]) {
            expect(results.map((r) => r.tracking_number)).toEqual(fixture.numbers);
            for (const result of results) checkResult(result);
            const text = JSON.stringify(results);
            for (const secret of fixture.secrets) expect(text).not.toContain(secret);
          }
          expect(keysOf(adapter, second)).toEqual(keysOf(adapter, first));
        } finally {
          await close();
        }
      });
    }

    it('the mapper never throws on arbitrary JSON', () => {
      fc.assert(
        fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
          contract.mapAnyJson(value);
        }),
        { numRuns: 300 },
      );
    });
  });
}

export function checkResult(result: TrackResult): void {
  expect(['ok', 'not_found', 'error']).toContain(result.status);
  if (result.status === 'error') {
    expect(typeof result.message).toBe('string');
    expect(typeof result.retryable).toBe('boolean');
    return;
  }
  if (result.status !== 'ok') return;
  let previous = '';
  for (const event of result.events) {
    const parsed = parseEventTime(event.time, { timezone: event.timezone });
    expect(parsed.ok, `time "${event.time}" (${event.timezone}) parses`).toBe(true);
    if (!parsed.ok) continue;
    expect(parsed.time.utc >= previous, 'events oldest first').toBe(true);
    previous = parsed.time.utc;
    expect(typeof event.additional_info.carrier_code).toBe('string');
    expect(event.additional_info.carrier_code.length).toBeGreaterThan(0);
    expect(event.event.length).toBeGreaterThan(0);
    if (event.event_key !== null) expect(event.phase_key).not.toBeNull();
  }
  if (result.expected_delivery) {
    expect(parseEventTime(result.expected_delivery.from).ok).toBe(true);
    expect(parseEventTime(result.expected_delivery.to).ok).toBe(true);
  }
}

function keysOf(adapter: CarrierAdapter, results: TrackResult[]): string[][] {
  return results.map((result) =>
    result.status === 'ok' ? result.events.map((event) => eventKey(adapter.record.id, result.tracking_number, event)) : [],
  );
}
