import { describe, expect, it } from 'vitest';
import type { CarrierEvent, TrackResult } from '../../../src/carriers/carrier.js';
import { INPOST_CODES, INPOST_STATUSES, INPOST_UNMAPPED_STATUSES } from '../../../src/carriers/inpost/inpost.codes.js';
import { errorText, INPOST_TIMEZONE, inpostTime, mapTrackingBody, targetPoint } from '../../../src/carriers/inpost/inpost.mapper.js';
import { isEventKey } from '../../../src/carriers/phases.js';
import { oldestFirst } from '../../../src/carriers/sdk/http-carrier.js';
import { parseEventTime } from '../../../src/core/event-time.js';
import { inpostFixture } from './fixtures.js';

function map(name: string, number = '620000000000000000000001'): TrackResult {
  return mapTrackingBody(number, inpostFixture(name));
}

function eventsOf(result: TrackResult): CarrierEvent[] {
  if (result.status !== 'ok') throw new Error(`expected ok, got ${result.status}`);
  return oldestFirst(result.events);
}

const keys = (result: TrackResult) => eventsOf(result).map((e) => [e.additional_info.carrier_code, e.event_key]);

describe('InPost code table', () => {
  it('lists every documented status, mapped or deliberately left out', () => {
    expect(INPOST_STATUSES).toHaveLength(53);
    expect(new Set(INPOST_STATUSES).size).toBe(INPOST_STATUSES.length);
    for (const status of INPOST_STATUSES) {
      const mapped = Object.hasOwn(INPOST_CODES, status);
      expect(mapped !== INPOST_UNMAPPED_STATUSES.includes(status), status).toBe(true);
    }
  });

  it('maps only documented statuses (and the locker refinement of one), only to our event keys', () => {
    for (const [code, key] of Object.entries(INPOST_CODES)) {
      expect(isEventKey(key), `${code} → ${key}`).toBe(true);
      const status = code.replace(/^locker:/, '');
      expect((INPOST_STATUSES as readonly string[]).includes(status), code).toBe(true);
    }
    expect(Object.keys(INPOST_CODES).filter((code) => code.includes(':'))).toEqual(['locker:delivered']);
  });
});

describe('InPost mapper: a parcel locker journey', () => {
  it('maps every status of the history, oldest first', () => {
    expect(keys(map('locker-journey'))).toEqual([
      ['created', 'info_received'],
      ['confirmed', 'label_created'],
      ['dispatched_by_sender', 'picked_up'],
      ['taken_by_courier', 'picked_up'],
      ['adopted_at_source_branch', 'arrived_at_facility'],
      ['sent_from_source_branch', 'departed_facility'],
      ['adopted_at_sorting_center', 'arrived_at_facility'],
      ['sent_from_sorting_center', 'departed_facility'],
      ['adopted_at_target_branch', 'arrived_at_facility'],
      ['out_for_delivery', 'out_for_delivery'],
      ['ready_to_pickup', 'available_for_pickup'],
      ['pickup_reminder_sent', 'available_for_pickup'],
      ['delivered', 'collected_by_recipient'],
    ]);
  });

  it('places the parcel waiting in the locker at the locker: its name, address and coordinates', () => {
    const ready = eventsOf(map('locker-journey')).find((e) => e.additional_info.carrier_code === 'ready_to_pickup');
    expect(ready).toMatchObject({
      event: 'Available for pickup',
      phase_key: 'available_for_pickup',
      time: '2025-11-18T11:20:33.000+01:00',
      timezone: INPOST_TIMEZONE,
      location: {
        place: 'Kraków, PL',
        full: 'KRA99X, ul. Testowa 1, 30-001 Kraków, Poland',
        formatted_address: 'ul. Testowa 1, 30-001 Kraków, Poland',
        location_type: 'pickup_point',
        line1: 'KRA99X',
        line2: 'ul. Testowa 1',
        postal_code: '30-001',
        city: 'Kraków',
        country_code: 'PL',
        latitude: '50.06001',
        longitude: '19.93702',
        timezone: 'Europe/Warsaw',
      },
      additional_info: {
        carrier_code: 'ready_to_pickup',
        carrier_description: 'ready_to_pickup',
        origin_status: 'AKT',
        target_machine_id: 'KRA99X',
      },
    });
    const collected = eventsOf(map('locker-journey')).at(-1);
    expect(collected?.event).toBe('Collected by the recipient');
    expect(collected?.location?.line1).toBe('KRA99X');
  });

  it('names a branch by its agency, and keeps the origin status', () => {
    const out = eventsOf(map('locker-journey')).find((e) => e.additional_info.carrier_code === 'out_for_delivery');
    expect(out?.location).toMatchObject({ place: 'KR1', line1: 'KR1', country_code: null });
    expect(out?.additional_info).toMatchObject({ agency: 'KR1', origin_status: 'WDO' });
    const created = eventsOf(map('locker-journey'))[0];
    expect(created.location).toBeNull();
    expect(created.additional_info).toEqual({ carrier_code: 'created', carrier_description: 'created' });
  });

  it('offers neither expected delivery nor proof of delivery (ShipX has none)', () => {
    const result = map('locker-journey');
    expect(result.status === 'ok' && result.expected_delivery).toBeUndefined();
    expect(result.status === 'ok' && result.proof_of_delivery).toBeUndefined();
  });
});

describe('InPost mapper: other journeys', () => {
  it('a courier parcel: a missed recipient, delivered at the address, the return receipt', () => {
    expect(keys(map('courier-delivered', '620000000000000000000002'))).toEqual([
      ['confirmed', 'label_created'],
      ['collected_from_sender', 'picked_up'],
      ['adopted_at_target_branch', 'arrived_at_facility'],
      ['out_for_delivery_to_address', 'out_for_delivery'],
      ['pickup_reminder_sent_address', 'delivery_attempt_failed'],
      ['out_for_delivery_to_address', 'out_for_delivery'],
      ['delivered', 'delivered'],
      ['return_pickup_confirmation_to_sender', 'delivered'],
    ]);
  });

  it('waiting in the locker', () => {
    const events = eventsOf(map('waiting-in-locker', '620000000000000000000003'));
    expect(events.at(-1)).toMatchObject({ event_key: 'available_for_pickup', location: { place: 'Gdańsk, PL', line1: 'GDA97Z' } });
  });

  it('not collected in time, then back to the sender', () => {
    expect(keys(map('expired-return', '620000000000000000000004'))).toEqual([
      ['ready_to_pickup', 'available_for_pickup'],
      ['pickup_reminder_sent', 'available_for_pickup'],
      ['pickup_time_expired', 'delivery_attempt_failed'],
      ['avizo', 'returning_to_sender'],
      ['returned_to_sender', 'returning_to_sender'],
    ]);
  });

  it('exceptions: missing, a complaint, a delay, failed attempts, refused, going back', () => {
    expect(keys(map('exceptions', '620000000000000000000005'))).toEqual([
      ['missing', 'lost'],
      ['claimed', 'damaged'],
      ['delay_in_delivery', 'delayed'],
      ['undelivered_cod_cash_receiver', 'delivery_attempt_failed'],
      ['undelivered_unknown_receiver', 'address_issue'],
      ['rejected_by_receiver', 'refused_by_recipient'],
      ['returned_to_sender', 'returning_to_sender'],
    ]);
  });

  it('a full locker: stored at a point and a temporary locker (no place given), then the chosen locker', () => {
    const events = eventsOf(map('point-storage', '620000000000000000000006'));
    expect(events.map((e) => [e.additional_info.carrier_code, e.event_key, e.location?.place ?? null])).toEqual([
      ['oversized', 'delivery_attempt_failed', 'WR6'],
      ['stack_in_box_machine', 'available_for_pickup', 'WR6'],
      ['stack_in_customer_service_point', 'available_for_pickup', 'WR6'],
      ['stack_parcel_pickup_time_expired', 'in_transit', 'WR6'],
      ['unstack_from_customer_service_point', 'in_transit', 'WR6'],
      ['ready_to_pickup', 'available_for_pickup', 'Wrocław, PL'],
      ['delivered', 'collected_by_recipient', 'Wrocław, PL'],
    ]);
  });

  it('a ParcelPoint at both ends; coordinates given as text', () => {
    const events = eventsOf(map('parcel-point', '620000000000000000000007'));
    expect(events.map((e) => [e.additional_info.carrier_code, e.event_key])).toEqual([
      ['dispatched_by_sender_to_pok', 'picked_up'],
      ['taken_by_courier_from_pok', 'in_transit'],
      ['sent_from_source_branch', 'departed_facility'],
      ['ready_to_pickup_from_pok', 'available_for_pickup'],
      ['delivered', 'collected_by_recipient'],
    ]);
    expect(events[3].location).toMatchObject({ place: 'Łódź, PL', line1: 'POP-LOD901', latitude: '51.75905', longitude: '19.45601' });
  });

  it('redirections and a parcel left at a point', () => {
    expect(keys(map('redirected', '620000000000000000000008'))).toEqual([
      ['redirect_to_box', 'rescheduled'],
      ['canceled_redirect_to_box', 'rescheduled'],
      ['readdressed', 'rescheduled'],
      ['undelivered_no_mailbox', 'delivery_attempt_failed'],
      ['courier_avizo_in_customer_service_point', 'available_for_pickup'],
    ]);
  });

  it('cancelled before sending: no place, even with a target locker', () => {
    const events = eventsOf(map('cancelled', '620000000000000000000009'));
    expect(events.map((e) => [e.additional_info.carrier_code, e.event_key])).toEqual([
      ['created', 'info_received'],
      ['offers_prepared', 'info_received'],
      ['offer_selected', 'info_received'],
      ['confirmed', 'label_created'],
      ['canceled', 'cancelled'],
    ]);
    expect(events.every((e) => e.location === null)).toBe(true);
  });
});

describe('InPost mapper: what the history may hold', () => {
  it('statuses without a key keep their name; entries without a status or a readable time are skipped', () => {
    const events = eventsOf(map('unmapped', '620000000000000000000010'));
    expect(events.map((e) => [e.additional_info.carrier_code, e.event_key, e.event])).toEqual([
      ['collected_from_sender', 'picked_up', 'Picked up by the carrier'],
      ['other', null, 'other'],
      ['a_status_not_yet_documented', null, 'a_status_not_yet_documented'],
      ['undelivered', null, 'undelivered'],
    ]);
    expect(events[1].phase_key).toBeNull();
  });

  it('times without an offset are Warsaw local times, kept as written', () => {
    const events = eventsOf(map('local-times', '620000000000000000000011'));
    expect(events.map((e) => e.time)).toEqual([
      '2025-10-25T16:00:00Z',
      '2025-10-26T01:45:10',
      '2025-10-26T02:30:00',
      '2026-03-29T01:30:00',
      '2026-03-29T07:15:00',
    ]);
    const utc = events.map((e) => {
      const parsed = parseEventTime(e.time, { timezone: e.timezone });
      return parsed.ok ? parsed.time.utc : null;
    });
    // The repeated autumn hour is its first occurrence (summer time); spring is after the change.
    expect(utc.slice(1)).toEqual([
      '2025-10-25T23:45:10.000Z',
      '2025-10-26T00:30:00.000Z',
      '2026-03-29T00:30:00.000Z',
      '2026-03-29T05:15:00.000Z',
    ]);
  });

  it('without a history, the current status at the last update is the one event', () => {
    expect(eventsOf(map('history-missing', '620000000000000000000012'))).toMatchObject([
      { event_key: 'label_created', time: '2025-11-27T08:03:00.000+01:00', additional_info: { carrier_code: 'confirmed' } },
    ]);
  });

  it('a ShipX not-found error body is not found; a body that is no tracking answer is a retryable error', () => {
    expect(map('not-found')).toEqual({ status: 'not_found', tracking_number: '620000000000000000000001' });
    expect(map('malformed')).toMatchObject({ status: 'error', retryable: true, message: 'InPost answer holds no tracking' });
    expect(mapTrackingBody('1', 'text')).toMatchObject({ status: 'error', retryable: true });
    expect(mapTrackingBody('1', { status: 500, error: 'something_else' })).toMatchObject({
      status: 'error',
      message: 'InPost answer holds no tracking (something_else)',
    });
  });

  it('an empty history and no status is found with no events', () => {
    expect(mapTrackingBody('1', { tracking_number: '1', tracking_details: [] })).toEqual({
      status: 'ok',
      tracking_number: '1',
      events: [],
    });
  });
});

describe('InPost mapper: helpers', () => {
  it('reads ISO times with or without offset and fraction, and nothing else', () => {
    expect(inpostTime('2025-11-18T11:20:33.000+01:00')).toBe('2025-11-18T11:20:33.000+01:00');
    expect(inpostTime('2025-11-18 11:20:33')).toBe('2025-11-18T11:20:33');
    expect(inpostTime('2025-11-18T11:20:33+0100')).toBe('2025-11-18T11:20:33+01:00');
    expect(inpostTime('18.11.2025 11:20')).toBeNull();
    expect(inpostTime('2025-13-01T00:00:00Z')).toBeNull();
    expect(inpostTime(1_763_461_233)).toBeNull();
    expect(inpostTime(null)).toBeNull();
  });

  it('a target point from its id alone, from address details, or none', () => {
    expect(targetPoint({ target_machine_id: 'KRA99X' })).toMatchObject({ place: 'KRA99X', line1: 'KRA99X', country_code: 'PL' });
    expect(
      targetPoint({
        target_machine_id: 'KRA99X',
        target_machine_detail: {
          address_details: { city: 'Kraków', post_code: '30-001' },
          address: { line1: 'ul. Testowa 1', line2: 'not a postal line' },
        },
      }),
    ).toMatchObject({ place: 'Kraków, PL', postal_code: '30-001', line2: 'ul. Testowa 1' });
    expect(targetPoint({ target_machine_detail: { address: { line2: '30-001 Kraków' } } })).toBeNull();
    expect(targetPoint(null)).toBeNull();
  });

  it('error text: key and message', () => {
    expect(errorText(inpostFixture('not-found'))).toBe('resource_not_found: No shipment with this number (an invented text)');
    expect(errorText({ error: 'invalid_parameter', description: 'Bad value' })).toBe('invalid_parameter: Bad value');
    expect(errorText('x')).toBe('');
  });
});
