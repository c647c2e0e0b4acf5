import { describe, expect, it } from 'vitest';
import type { CarrierEvent, TrackResult } from '../../../src/carriers/carrier.js';
import { EVENTS, isEventKey } from '../../../src/carriers/phases.js';
import { mapCode } from '../../../src/carriers/sdk/codes.js';
import { SHIP24_CODES, SHIP24_DOCUMENTED, SHIP24_MILESTONE_ONLY, SHIP24_PHASE_ONLY } from '../../../src/carriers/ship24/ship24.codes.js';
import { courierBook, readCouriers, TABLE_ONLY } from '../../../src/carriers/ship24/ship24.couriers.js';
import { type CodeMapper, mapResultsBody, parseShip24Push } from '../../../src/carriers/ship24/ship24.mapper.js';
import {
  bulkBody,
  clientTrackerId,
  errorCodes,
  isQuotaAnswer,
  isUnknownTracker,
  readBulk,
} from '../../../src/carriers/ship24/ship24.trackers.js';
import { parseEventTime } from '../../../src/core/event-time.js';
import { fixture, NUMBERS } from './ship24.fixtures.js';

const listed = readCouriers(fixture('couriers.json'));
if (!listed) throw new Error('couriers.json unreadable');
const couriers = courierBook(listed);

function map(name: string, number: string, options: { couriers?: typeof couriers; eventKeyOf?: CodeMapper } = { couriers }): TrackResult {
  const result = mapResultsBody(number, fixture(name), options);
  if (!result) throw new Error(`${name} unreadable`);
  return result;
}

function ok(result: TrackResult): Extract<TrackResult, { status: 'ok' }> {
  if (result.status !== 'ok') throw new Error(`expected an ok result, got ${JSON.stringify(result)}`);
  return result;
}

const keys = (events: CarrierEvent[]) => events.map((event) => event.event_key);
const phases = (events: CarrierEvent[]) => events.map((event) => event.phase_key);
const utc = (event: CarrierEvent) => {
  const parsed = parseEventTime(event.time, { timezone: event.timezone });
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.time.utc;
};

describe('ship24 mapper: the code table', () => {
  it('places every status code and milestone of the Status page: a key, a phase, or the milestone', () => {
    for (const code of [...SHIP24_DOCUMENTED.statusCodes, ...SHIP24_DOCUMENTED.milestones]) {
      const handled = Object.hasOwn(SHIP24_CODES, code) || Object.hasOwn(SHIP24_PHASE_ONLY, code) || SHIP24_MILESTONE_ONLY.includes(code);
      expect(handled, code).toBe(true);
    }
    expect(mapCode(SHIP24_CODES, ['delivery_delivered'])).toBe('delivered');
    expect(mapCode(SHIP24_CODES, ['delivery_attempted'])).toBe('delivery_attempt_failed');
    expect(mapCode(SHIP24_CODES, ['delivery_available_for_pickup'])).toBe('available_for_pickup');
    expect(mapCode(SHIP24_CODES, ['failed_attempt'])).toBe('delivery_attempt_failed');
    expect(mapCode(SHIP24_CODES, ['exception_return'])).toBe('returning_to_sender');
    expect(mapCode(SHIP24_CODES, ['customs_received'])).toBe('in_customs');
    expect(SHIP24_PHASE_ONLY.exception).toBe('exception');
  });

  it('holds only standard event keys', () => {
    for (const [code, key] of Object.entries(SHIP24_CODES)) expect(isEventKey(key), code).toBe(true);
    expect(Object.keys(EVENTS)).toContain('collected_by_recipient');
  });
});

describe('ship24 mapper: results answers', () => {
  it('maps a domestic parcel oldest first, in local time of its country, with the courier named from the list', () => {
    const result = ok(map('delivered-gb.json', NUMBERS.delivered));
    expect(keys(result.events)).toEqual(['info_received', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered']);
    expect(result.events.map((e) => e.time)).toEqual([
      '2026-11-18T16:30:00',
      '2026-11-19T11:02:00',
      '2026-11-19T22:10:00',
      '2026-11-20T07:40:00',
      '2026-11-20T13:05:00',
    ]);
    expect(result.events.every((e) => e.timezone === 'Europe/London')).toBe(true);
    const delivered = result.events[4];
    expect(delivered).toMatchObject({
      event: 'Delivered',
      phase_key: 'delivered',
      location: { place: 'LONDON', country_code: 'GB', timezone: 'Europe/London' },
      additional_info: {
        carrier_code: 'delivery_delivered',
        carrier_description: 'Delivered',
        courier_code: 'royal-mail',
        status_milestone: 'delivered',
        status_category: 'delivery',
      },
    });
    // No status code: the milestone places it; the courier's words are kept.
    expect(result.events[2].additional_info).toMatchObject({
      carrier_code: 'in_transit',
      carrier_description: 'Item received at the mail centre',
    });
    // Without a place, the country alone.
    expect(result.events[0].location).toMatchObject({ place: 'United Kingdom', country_code: 'GB' });
    expect(result.carrier_of_record).toEqual({ name: 'Royal Mail', courier_code: 'royal-mail', carrier_id: null });
    expect(result.expected_delivery).toEqual({ from: '2026-11-20', to: '2026-11-20' });
  });

  it('names no carrier of record from a bare code before the courier list is known', () => {
    const result = ok(map('delivered-gb.json', NUMBERS.delivered, { couriers: TABLE_ONLY }));
    expect(result.carrier_of_record).toBeUndefined();
    // Domestic: the shipment's country places the times all the same.
    expect(result.events[0].timezone).toBe('Europe/London');
  });

  it('maps an international parcel: each post in its own country, offsets kept, customs, the last courier of record', () => {
    const result = ok(map('international-us.json', NUMBERS.international));
    expect(keys(result.events)).toEqual([
      'info_received',
      'picked_up',
      'departed_facility',
      'arrived_at_facility',
      'in_customs',
      'customs_cleared',
      'in_transit',
      'out_for_delivery',
    ]);
    const [created, posted, departed, arrived, , cleared, regional, out] = result.events;
    expect(created).toMatchObject({ time: '2026-11-05', timezone: 'Asia/Shanghai' });
    expect(posted).toMatchObject({ time: '2026-11-06T10:00:00+08:00' });
    expect(departed).toMatchObject({
      time: '2026-11-07T23:10:00',
      timezone: 'Asia/Shanghai',
      location: { place: 'BEIJING', country_code: 'CN' },
    });
    expect(departed.additional_info).toMatchObject({ courier_code: 'cn-post', event_tracking_number: 'TT200000099CN' });
    expect(arrived).toMatchObject({ time: '2026-11-09T14:30:00Z' });
    expect(cleared).toMatchObject({ timezone: 'America/Los_Angeles', location: { place: 'LOS ANGELES, CA 90009', country_code: 'US' } });
    // A US place without a ZIP code names no state: no timezone, the time as written.
    expect(regional).toMatchObject({ time: '2026-11-11T19:30:00', timezone: null });
    expect(out).toMatchObject({ timezone: 'America/Los_Angeles' });
    expect(out.additional_info).not.toHaveProperty('event_tracking_number');
    expect(utc(out)).toBe('2026-11-12T16:05:00.000Z');
    expect(result.carrier_of_record).toEqual({ name: 'USPS', courier_code: 'us-post', carrier_id: 'uspsus' });
    expect(result.expected_delivery).toEqual({ from: '2026-11-12T09:00:00', to: '2026-11-12T17:00:00' });
  });

  it('names a courier of its own table without the list', () => {
    const result = ok(map('international-us.json', NUMBERS.international, { couriers: TABLE_ONLY }));
    expect(result.carrier_of_record).toEqual({ name: 'USPS', courier_code: 'us-post', carrier_id: 'uspsus' });
    // China Post's country comes from the list only.
    expect(result.events[2].timezone).toBeNull();
  });

  it('a failed attempt, a Post Office holding the parcel, then its collection', () => {
    const result = ok(map('pickup-gb.json', NUMBERS.pickup));
    expect(keys(result.events)).toEqual(['out_for_delivery', 'delivery_attempt_failed', 'available_for_pickup', 'collected_by_recipient']);
    expect(result.events[2]).toMatchObject({
      event: 'Available for pickup',
      location: { place: 'CHELSEA POST OFFICE', country_code: 'GB' },
    });
    expect(phases(result.events)).toEqual(['out_for_delivery', 'failed_attempt', 'available_for_pickup', 'delivered']);
  });

  it('exceptions keep the courier text in the exception phase; a delivery after a return is back at the sender', () => {
    const result = ok(map('exceptions-gb.json', NUMBERS.exceptions));
    expect(keys(result.events)).toEqual(['picked_up', null, 'returning_to_sender', null, 'returned_to_sender']);
    expect(phases(result.events)).toEqual(['in_transit', 'exception', 'return_to_sender', 'exception', 'return_to_sender']);
    expect(result.events[1]).toMatchObject({ event: 'Address incomplete', additional_info: { carrier_code: 'delivery_exception' } });
    expect(result.events[3]).toMatchObject({ event: 'Return in progress', additional_info: { carrier_code: 'exception' } });
    expect(result.expected_delivery).toBeUndefined();
  });

  it('a tracker without events is not found yet; a body without trackings is unreadable', () => {
    expect(map('pending.json', NUMBERS.pending)).toEqual({ status: 'not_found', tracking_number: NUMBERS.pending });
    expect(mapResultsBody(NUMBERS.pending, { data: { trackings: [] } })).toEqual({ status: 'not_found', tracking_number: NUMBERS.pending });
    expect(mapResultsBody(NUMBERS.pending, fixture('not-found.json'))).toBeNull();
    expect(mapResultsBody(NUMBERS.pending, '<html>')).toBeNull();
  });

  it('codes the table lacks fall back to the milestone and are counted; unreadable times are left out', () => {
    const asked: string[][] = [];
    const eventKeyOf: CodeMapper = (codes) => {
      asked.push(codes.filter((c): c is string => typeof c === 'string'));
      return mapCode(SHIP24_CODES, codes);
    };
    const result = ok(map('unmapped.json', NUMBERS.unmapped, { couriers, eventKeyOf }));
    expect(result.events).toHaveLength(3);
    // Same day: Ship24's order (lower is older) decides.
    expect(result.events.map((e) => e.additional_info.carrier_code)).toEqual([
      'customs_exception',
      'transit_sorting_unknown',
      'data_delivery_decided',
    ]);
    expect(keys(result.events)).toEqual([null, 'in_transit', 'in_transit']);
    expect(result.events[0]).toMatchObject({ phase_key: 'exception', event: 'Sendung im Zielland eingetroffen', timezone: 'Europe/Paris' });
    // A courier that is not a post, or unknown: the time as written.
    expect(result.events[2]).toMatchObject({ time: '2026-11-12T08:00:00', timezone: null });
    expect(asked).toContainEqual(['transit_sorting_unknown', 'in_transit']);
    // Delivery options offered or decided: the milestone alone.
    expect(asked).toContainEqual(['in_transit']);
    // Ship24's own estimate is UTC.
    expect(result.expected_delivery).toEqual({ from: '2026-11-14T16:00:00Z', to: '2026-11-14T16:00:00Z' });
    // A code the courier list lacks is its own name.
    expect(result.carrier_of_record).toEqual({ name: 'some-courier', courier_code: 'some-courier', carrier_id: null });
  });

  it("orders events at the same instant by Ship24's order, whatever the list order", () => {
    const tracking = {
      tracker: { clientTrackerId: clientTrackerId('TT200000010GB') },
      shipment: { originCountryCode: 'GB', destinationCountryCode: 'GB' },
      events: [
        {
          status: 'first',
          occurrenceDatetime: '2026-11-20T10:00:00',
          order: 1,
          statusMilestone: 'in_transit',
          statusCode: 'transit_handover',
        },
        { status: 'second', occurrenceDatetime: '2026-11-20T10:00:00', order: 2, statusMilestone: 'in_transit' },
      ],
    };
    const result = ok(mapResultsBody('TT200000010GB', { data: { trackings: [tracking] } }) as TrackResult);
    expect(result.events.map((e) => e.additional_info.carrier_description)).toEqual(['first', 'second']);
  });
});

describe('ship24 mapper: webhooks', () => {
  it("maps the events of Waybill's trackers; other trackers and proof-of-delivery messages are acknowledged only", () => {
    const parsed = parseShip24Push(fixture('webhook.json'), { couriers });
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.updates).toHaveLength(1);
    const [update] = parsed.updates;
    expect(update.tracking_number).toBe(NUMBERS.delivered);
    const result = ok(update.result);
    expect(keys(result.events)).toEqual(['out_for_delivery']);
    expect(result.events[0]).toMatchObject({ time: '2026-11-20T07:40:00', timezone: 'Europe/London' });
    expect(result.carrier_of_record).toEqual({ name: 'Royal Mail', courier_code: 'royal-mail', carrier_id: null });
  });

  it('refuses a body without a trackings list, and one too long', () => {
    expect(parseShip24Push({ tracking: [] })).toMatchObject({ ok: false });
    expect(parseShip24Push([])).toMatchObject({ ok: false });
    expect(parseShip24Push({ trackings: Array.from({ length: 501 }, () => ({})) })).toMatchObject({ ok: false });
    expect(parseShip24Push({ trackings: [] })).toEqual({ ok: true, updates: [] });
  });
});

describe('ship24 trackers: ids, bulk answers, errors', () => {
  it('derives one clientTrackerId per number however it is written', () => {
    expect(clientTrackerId('TT200000010GB')).toMatch(/^wb-[0-9a-f]{32}$/);
    expect(clientTrackerId(' tt2000 00010gb ')).toBe(clientTrackerId('TT200000010GB'));
    expect(clientTrackerId('TT200000023GB')).not.toBe(clientTrackerId('TT200000010GB'));
    expect(bulkBody(['tt200000010gb'])).toEqual([{ trackingNumber: 'TT200000010GB', clientTrackerId: clientTrackerId('TT200000010GB') }]);
  });

  it('reads what became of each number in a bulk creation', () => {
    const outcomes = readBulk(fixture('bulk-partial.json'), [NUMBERS.pickup, NUMBERS.pending, 'ABC']);
    expect(outcomes?.get(NUMBERS.pickup)).toEqual({ status: 'existing' });
    expect(outcomes?.get(NUMBERS.pending)).toEqual({ status: 'created' });
    expect(outcomes?.get('ABC')).toMatchObject({ status: 'refused', code: 'validation_error', retryable: false });
    expect(readBulk(fixture('quota-exceeded.json'), [NUMBERS.pending])).toBeNull();
  });

  it('reads error codes of both error bodies', () => {
    expect(isQuotaAnswer(fixture('quota-exceeded.json'))).toBe(true);
    expect(isUnknownTracker(fixture('not-found.json'))).toBe(true);
    expect(errorCodes({ errors: [{ code: 'validation_error' }, { message: 'x' }] })).toEqual(['validation_error']);
    expect(errorCodes('Too Many Requests')).toEqual([]);
  });

  it('reads the courier list', () => {
    expect(listed.get('royal-mail')).toEqual({ name: 'Royal Mail', country: 'GB', post: true });
    expect(listed.get('inpost')).toEqual({ name: 'InPost', country: 'PL', post: false });
    expect(readCouriers({ data: { couriers: [{ courierCode: 'x' }, 'y', { courierCode: 'z', courierName: 'Z' }] } })?.size).toBe(1);
    expect(readCouriers({ data: null })).toBeNull();
  });
});
