import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CarrierEvent, TrackResult } from '../../../src/carriers/carrier.js';
import { oldestFirst } from '../../../src/carriers/sdk/http-carrier.js';
import { USPS_CATEGORIES, USPS_CODES } from '../../../src/carriers/uspsus/uspsus.codes.js';
import { mapErrorAnswer, mapTrackingAnswer } from '../../../src/carriers/uspsus/uspsus.mapper.js';
import { clockOf, withZoneOffset } from '../../../src/carriers/uspsus/uspsus.times.js';
import { parseEventTime } from '../../../src/core/event-time.js';

const fixture = (name: string): unknown =>
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../fixtures/uspsus', `${name}.json`), 'utf8'));

function ok(result: TrackResult): Extract<TrackResult, { status: 'ok' }> {
  expect(result.status, JSON.stringify(result)).toBe('ok');
  return result as Extract<TrackResult, { status: 'ok' }>;
}

const one = (name: string, number: string) => ok(mapTrackingAnswer(fixture(name), [number])[0]);
const byCode = (events: CarrierEvent[], code: string) => events.find((e) => e.additional_info.carrier_code === code) as CarrierEvent;
const utc = (event: CarrierEvent) => {
  const parsed = parseEventTime(event.time, { timezone: event.timezone });
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.time.utc;
};

describe('USPS mapper: code families', () => {
  it('maps a delivered journey: label, acceptance, facilities, out for delivery, delivered', () => {
    const result = one('delivered', '9400111899223851000014');
    expect(result.tracking_number).toBe('9400111899223851000014');
    const keys = Object.fromEntries(result.events.map((e) => [e.additional_info.carrier_code, e.event_key]));
    expect(keys).toEqual({
      '01': 'delivered',
      OF: 'out_for_delivery',
      '07': 'arrived_at_facility',
      PC: 'in_transit',
      EF: 'departed_facility',
      '10': 'in_transit',
      '03': 'picked_up',
      GX: 'label_created',
    });
    const delivered = byCode(result.events, '01');
    expect(delivered).toMatchObject({
      event: 'Delivered',
      phase_key: 'delivered',
      time: '2026-11-05T13:05:00-05:00',
      timezone: 'America/New_York',
      additional_info: {
        carrier_code: '01',
        carrier_description: 'Delivered, Front Door/Porch',
        action_code: '01',
        reason_code: '10',
        zip_code: '12901',
        gmt_offset: '-5:00',
      },
    });
    expect(delivered.location).toMatchObject({
      place: 'Riverton, NY, US',
      city: 'Riverton',
      state_or_province: 'NY',
      postal_code: '12901',
      country_code: 'US',
      timezone: 'America/New_York',
    });
    expect(result.expected_delivery).toEqual({ from: '2026-11-05', to: '2026-11-05' });
  });

  it('maps failed attempts, pickup at the Post Office and collection', () => {
    const { events } = one('attempt-pickup', '9400111899223851000021');
    expect(events.map((e) => [e.additional_info.carrier_code, e.event_key, e.phase_key])).toEqual([
      ['43', 'collected_by_recipient', 'delivered'],
      ['16', 'available_for_pickup', 'available_for_pickup'],
      ['53', 'delivery_attempt_failed', 'failed_attempt'],
      ['02', 'delivery_attempt_failed', 'failed_attempt'],
      ['OF', 'out_for_delivery', 'out_for_delivery'],
    ]);
    expect(byCode(events, '43').timezone).toBe('America/Chicago');
  });

  it('maps refusals, undeliverable addresses and returns to the sender', () => {
    const { events } = one('return', '9400111899223851000038');
    expect(events.map((e) => [e.additional_info.carrier_code, e.event_key])).toEqual([
      ['09', 'returning_to_sender'],
      ['21', 'returning_to_sender'],
      ['05', 'address_issue'],
      ['04', 'refused_by_recipient'],
    ]);
    expect(byCode(events, '09').phase_key).toBe('return_to_sender');
  });

  it('maps delays, rescheduling and dead letters; keeps unknown codes with USPS words; the category speaks only for the newest scan', () => {
    const { events } = one('exceptions', '9400111899223851000045');
    // NT is no code of ours: the newest scan takes the item's category (In Transit).
    expect(byCode(events, 'NT')).toMatchObject({ event_key: 'in_transit', event: 'In transit' });
    expect(byCode(events, '71').event_key).toBe('rescheduled');
    expect(byCode(events, '08').event_key).toBe('delayed');
    expect(byCode(events, '11').event_key).toBe('lost');
    // DX is not mapped, and being an older scan it gets no category either.
    expect(byCode(events, 'DX')).toMatchObject({
      event_key: null,
      phase_key: null,
      event: 'Delivery Status Not Updated',
      additional_info: { carrier_code: 'DX', carrier_description: 'Delivery Status Not Updated' },
    });
  });

  it('counts codes through the lookup it is given, most specific first', () => {
    const asked: Array<ReadonlyArray<string | null | undefined>> = [];
    mapTrackingAnswer(fixture('exceptions'), ['9400111899223851000045'], {
      code: (codes) => {
        asked.push(codes);
        return null;
      },
    });
    expect(asked[0]).toEqual(['NT', 'category:in transit']);
    expect(asked[1]).toEqual(['71', null]);
  });

  it('lists every code of the table once, each with a known key', () => {
    for (const [code, key] of Object.entries({ ...USPS_CODES, ...USPS_CATEGORIES })) {
      expect(typeof key, code).toBe('string');
    }
    expect(Object.keys(USPS_CODES)).toHaveLength(new Set(Object.keys(USPS_CODES)).size);
  });
});

describe('USPS mapper: times and places', () => {
  it('reads Tracking 3.0 local times: GMTOffset padded, the state zone, a local time labelled Z, a date alone, GMT only', () => {
    const { events } = one('local-times', '9400111899223851000052');
    // Texas spans two zones: the offset USPS gives places the time, the state cannot.
    expect(events[0]).toMatchObject({ time: '2026-11-12T22:14:00-06:00', timezone: null });
    expect(events[1]).toMatchObject({ time: '2026-11-12T09:30:00', timezone: null });
    expect(events[2]).toMatchObject({ time: '2026-11-11T18:05:00', timezone: 'America/Chicago' });
    // USPS's own Tracking 3.0 example labels local times Z: Virginia's zone wins over the Z.
    expect(events[3]).toMatchObject({ time: '2026-11-10T07:31:00', timezone: 'America/New_York' });
    expect(utc(events[3])).toBe('2026-11-10T12:31:00.000Z');
    expect(events[4]).toMatchObject({ time: '2026-11-09', timezone: 'America/New_York', event_key: 'label_created' });
    expect(events[5]).toMatchObject({ time: '2026-11-11T02:00:00Z' });
    expect(events[1].location).toMatchObject({ postal_code: '75001', place: 'Lakeside, TX, US' });
  });

  it('keeps the two 01:xx hours of the fall-back night apart and orders them by instant', () => {
    const { events } = one('dst', '9400111899223851000069');
    const arrived = byCode(events, '10');
    const departed = byCode(events, 'EF');
    expect(arrived.time).toBe('2026-11-01T01:20:00-04:00');
    expect(departed.time).toBe('2026-11-01T01:40:00-05:00');
    expect(utc(arrived)).toBe('2026-11-01T05:20:00.000Z');
    expect(utc(departed)).toBe('2026-11-01T06:40:00.000Z');
    // A wall time the spring-forward skipped still places (moved by the gap), after the 01:30 before it.
    const accepted = byCode(events, '03');
    const sorted = byCode(events, 'PC');
    expect(sorted).toMatchObject({ time: '2026-03-08T02:30:00', timezone: 'America/Denver' });
    expect(utc(accepted) < utc(sorted)).toBe(true);
    expect(oldestFirst(events).map((e) => e.additional_info.carrier_code)).toEqual(['03', 'PC', '10', 'EF']);
  });

  it('gives the predicted window with the destination zone offset of that day, DST included', () => {
    const result = one('dst', '9400111899223851000069');
    expect(result.expected_delivery).toEqual({ from: '2026-11-01T01:00:00-04:00', to: '2026-11-01T03:00:00-05:00' });
    expect(withZoneOffset('2026-07-01T12:00:00', 'America/Los_Angeles')).toBe('2026-07-01T12:00:00-07:00');
    expect(withZoneOffset('2026-07-01T12:00:00', null)).toBe('2026-07-01T12:00:00');
  });

  it('reads USPS window clocks', () => {
    expect(clockOf('12:15pm')).toBe('12:15:00');
    expect(clockOf('12:05 AM')).toBe('00:05:00');
    expect(clockOf('3:15 p.m.')).toBe('15:15:00');
    expect(clockOf('9am')).toBe('09:00:00');
    expect(clockOf('15:45')).toBe('15:45:00');
    expect(clockOf('13:15pm')).toBeNull();
    expect(clockOf('soon')).toBeNull();
    expect(clockOf(7)).toBeNull();
  });

  it('places partner, ZIP-only and country-only scans, with country names in words', () => {
    const { events } = one('international', '9205511899223851000118');
    expect(byCode(events, '10').location).toMatchObject({ place: '60666, US', postal_code: '60666', country_code: 'US', city: null });
    expect(byCode(events, '82').location).toMatchObject({ place: 'SYNTHETIC LOGISTICS CO', country_code: 'CN' });
    expect(byCode(events, '82')).toMatchObject({
      timezone: 'Asia/Shanghai',
      time: '2026-11-10T18:00:00+08:00',
      event_key: 'departed_facility',
      additional_info: { partner: 'SYNTHETIC LOGISTICS CO', country: 'CHINA' },
    });
    expect(byCode(events, '80')).toMatchObject({ event_key: 'picked_up', timezone: 'Europe/Berlin' });
    expect(byCode(events, '80').location).toMatchObject({ place: 'Germany', country_code: 'DE', city: null });
  });
});

describe('USPS mapper: batches, not found, malformed', () => {
  it('answers each number of a 207 batch: found, not yet known, never trackable, a reused number, and one left out', () => {
    const numbers = [
      '9400111899223851000076',
      '9400111899223851000083',
      '9400111899223851000090',
      '9400111899223851000106',
      '9300111899223851000138',
    ];
    const [found, unknown, refused, reused, missing] = mapTrackingAnswer(fixture('multi-status'), numbers);
    expect(ok(found).events.map((e) => e.event_key)).toEqual(['out_for_delivery', 'arrived_at_facility']);
    // Florida spans two zones: the predicted window stays in local wall time.
    expect(ok(found).expected_delivery).toEqual({ from: '2026-11-13T12:15:00', to: '2026-11-13T15:15:00' });
    expect(unknown).toEqual({ status: 'not_found', tracking_number: numbers[1] });
    expect(refused).toMatchObject({ status: 'error', retryable: false, tracking_number: numbers[2] });
    expect((refused as { message: string }).message).toContain('may belong to another shipper');
    // Two items share the number: the one mailed last is this shipment.
    expect(ok(reused).events.map((e) => e.additional_info.carrier_code)).toEqual(['10', '03']);
    expect(missing).toMatchObject({ status: 'error', retryable: true, tracking_number: numbers[4] });
  });

  it('matches a number asked with its 420 + ZIP routing prefix to the IMpb USPS answers with', () => {
    const [result] = mapTrackingAnswer(fixture('delivered'), ['420129019400111899223851000014']);
    expect(ok(result).tracking_number).toBe('420129019400111899223851000014');
    expect(ok(result).events).toHaveLength(8);
  });

  it('reads USPS error answers: unknown numbers are not found, other refusals are errors, other bodies are not USPS errors', () => {
    expect(mapErrorAnswer(400, fixture('not-found'), ['9400111899223851000083'])).toEqual([
      { status: 'not_found', tracking_number: '9400111899223851000083' },
    ]);
    expect(mapErrorAnswer(404, fixture('not-found-404'), ['a1234', 'b1234'])).toEqual([
      { status: 'not_found', tracking_number: 'a1234' },
      { status: 'not_found', tracking_number: 'b1234' },
    ]);
    const [bad] = mapErrorAnswer(400, { error: { code: '400', message: 'Invalid request body', errors: [] } }, ['x1234']) ?? [];
    expect(bad).toMatchObject({ status: 'error', retryable: false });
    expect(mapErrorAnswer(404, { error: 'no such route' }, ['x1234'])).toBeNull();
    expect(mapErrorAnswer(400, '<html>', ['x1234'])).toBeNull();
  });

  it('gives an item without scans its expected date and no events', () => {
    const result = one('empty-events', '9400111899223851000151');
    expect(result.events).toEqual([]);
    expect(result.expected_delivery).toEqual({ from: '2026-11-20', to: '2026-11-20' });
  });

  it('drops what it cannot read and never throws', () => {
    const [first, second, third] = mapTrackingAnswer(fixture('malformed'), ['9400111899223851000144', '42', 'junk']);
    expect(ok(first).events).toEqual([]);
    expect(ok(first).expected_delivery).toBeUndefined();
    expect(ok(second).events).toEqual([]);
    expect(third).toMatchObject({ status: 'error', retryable: true });
    for (const body of [null, 7, 'x', [], {}, [[]], { trackingEvents: [{}] }]) {
      expect(mapTrackingAnswer(body, ['9400111899223851000144'])[0].status).toBe('error');
    }
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        mapTrackingAnswer(value, ['9400111899223851000014']);
        mapTrackingAnswer(
          [{ trackingNumber: '9400111899223851000014', trackingEvents: [value], deliveryDateExpectation: value }],
          ['9400111899223851000014'],
        );
        mapErrorAnswer(400, value, ['9400111899223851000014']);
      }),
      { numRuns: 300 },
    );
  });

  it('gives every mapped event a time that parses', () => {
    for (const [name, number] of [
      ['delivered', '9400111899223851000014'],
      ['attempt-pickup', '9400111899223851000021'],
      ['return', '9400111899223851000038'],
      ['exceptions', '9400111899223851000045'],
      ['local-times', '9400111899223851000052'],
      ['dst', '9400111899223851000069'],
      ['international', '9205511899223851000118'],
    ] as const) {
      for (const event of one(name, number).events)
        expect(parseEventTime(event.time, { timezone: event.timezone }).ok, `${name} ${event.time}`).toBe(true);
    }
  });
});
