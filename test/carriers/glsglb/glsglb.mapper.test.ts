import { describe, expect, it } from 'vitest';
import type { CarrierEvent, TrackResult } from '../../../src/carriers/carrier.js';
import { GLS_CODES } from '../../../src/carriers/glsglb/glsglb.codes.js';
import { isQuotaFault, mapGlsResponse, mapParcelEvents, problemText } from '../../../src/carriers/glsglb/glsglb.mapper.js';
import { EVENTS, isEventKey } from '../../../src/carriers/phases.js';
import { mapCode } from '../../../src/carriers/sdk/codes.js';
import { parseEventTime } from '../../../src/core/event-time.js';
import { fixture } from './gls-server.js';

function okEvents(result: TrackResult | undefined): CarrierEvent[] {
  if (result?.status !== 'ok') throw new Error(`expected an ok result, got ${JSON.stringify(result)}`);
  return result.events;
}

function only(name: string, number: string): TrackResult {
  const results = mapGlsResponse(fixture(name), [number]);
  if (!Array.isArray(results)) throw new Error(results.message);
  expect(results).toHaveLength(1);
  return results[0];
}

const utc = (event: CarrierEvent) => {
  const parsed = parseEventTime(event.time, { timezone: event.timezone });
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.time.utc;
};

describe('glsglb mapper: the code table', () => {
  it('maps every documented parcel status but FINAL', () => {
    const statuses = [
      'PLANNEDPICKUP',
      'INPICKUP',
      'NOTPICKEDUP',
      'PREADVICE',
      'INTRANSIT',
      'INWAREHOUSE',
      'INDELIVERY',
      'DELIVEREDPS',
      'DELIVERED',
      'NOTDELIVERED',
      'CANCELED',
    ];
    for (const status of statuses) expect(mapCode(GLS_CODES, [status]), status).not.toBeNull();
    expect(mapCode(GLS_CODES, ['FINAL'])).toBeNull();
    expect(mapCode(GLS_CODES, ['PREADVICE'])).toBe('info_received');
    expect(mapCode(GLS_CODES, ['PLANNEDPICKUP'])).toBe('info_received');
    expect(mapCode(GLS_CODES, ['INTRANSIT'])).toBe('in_transit');
    expect(mapCode(GLS_CODES, ['INWAREHOUSE'])).toBe('in_transit');
    expect(mapCode(GLS_CODES, ['INDELIVERY'])).toBe('out_for_delivery');
    expect(mapCode(GLS_CODES, ['DELIVERED'])).toBe('delivered');
    expect(mapCode(GLS_CODES, ['NOTDELIVERED'])).toBe('delivery_attempt_failed');
    expect(mapCode(GLS_CODES, ['DELIVEREDPS'])).toBe('delivered_to_pickup_point');
    expect(mapCode(GLS_CODES, ['DELIVEREDPS:after_attempt'])).toBe('available_for_pickup');
  });

  it('holds only standard event keys', () => {
    for (const [code, key] of Object.entries(GLS_CODES)) expect(isEventKey(key), code).toBe(true);
  });
});

describe('glsglb mapper: one case per code family', () => {
  it.each([
    ['info-received.json', '531000000022', ['info_received', 'info_received'], 'info_received'],
    ['in-transit.json', '531000000039', ['info_received', 'picked_up', 'departed_facility', 'arrived_at_facility'], 'in_transit'],
    ['in-warehouse.json', '531000000046', ['arrived_at_facility', null, 'in_transit'], 'in_transit'],
    ['out-for-delivery.json', '531000000053', ['arrived_at_facility', 'out_for_delivery'], 'out_for_delivery'],
    ['delivered.json', '531000000060', ['picked_up', 'out_for_delivery', 'delivered'], 'delivered'],
    ['delivered-parcel-shop.json', '531000000077', ['out_for_delivery', 'delivered_to_pickup_point'], 'delivered'],
    [
      'parcel-shop-after-attempt.json',
      '531000000084',
      ['out_for_delivery', 'delivery_attempt_failed', 'available_for_pickup'],
      'available_for_pickup',
    ],
    ['not-delivered.json', '531000000107', ['out_for_delivery', 'delivery_attempt_failed'], 'failed_attempt'],
    ['not-picked-up.json', '531000000114', ['pickup_failed'], 'info_received'],
    ['cancelled.json', '531000000121', ['info_received', 'cancelled'], 'exception'],
  ])('%s: keys oldest first, last phase', (name, number, keys, phase) => {
    const events = okEvents(only(name, number));
    expect(events.map((e) => e.event_key)).toEqual(keys);
    expect(events.at(-1)?.phase_key).toBe(phase);
    const times = events.map(utc);
    expect([...times].sort()).toEqual(times);
    for (const event of events) {
      expect(event.additional_info.carrier_code.length).toBeGreaterThan(0);
      if (event.event_key) expect(event.event).toBe(EVENTS[event.event_key].description);
    }
  });

  it('keeps GLS code and wording; an unknown code keeps its description and no key', () => {
    const events = okEvents(only('in-warehouse.json', '531000000046'));
    const unknown = events[1];
    expect(unknown).toMatchObject({
      event: 'Parcel checked at the depot.',
      event_key: null,
      phase_key: null,
      additional_info: { carrier_code: 'XCHECK.SAMPLE', carrier_description: 'Parcel checked at the depot.' },
    });
    // The newest event's own code is unknown: the parcel status of the same moment stands in.
    expect(events[2]).toMatchObject({
      event: 'In transit',
      event_key: 'in_transit',
      additional_info: { carrier_code: 'WHOUSE.NORMAL', carrier_description: 'Parcel stored at the depot.', gls_status: 'INWAREHOUSE' },
    });
  });

  it('counts codes through the adapter mapper, most specific first', () => {
    const asked: string[][] = [];
    mapGlsResponse(fixture('parcel-shop-after-attempt.json'), ['531000000084'], (codes) => {
      asked.push(codes.filter((c): c is string => typeof c === 'string'));
      return mapCode(GLS_CODES, codes);
    });
    expect(asked).toEqual([
      ['OUTDEL.NORMAL', 'OUTDEL'],
      ['NOTDEL.SAMPLE', 'NOTDEL'],
      ['DELIVD.PARCELSHOP:after_attempt', 'DELIVD.PARCELSHOP', 'DELIVD', 'DELIVEREDPS:after_attempt', 'DELIVEREDPS'],
    ]);
  });

  it('a parcel with only a status and its time becomes one event of that status', () => {
    expect(okEvents(only('not-picked-up.json', '531000000114'))).toEqual([
      {
        event: 'Pickup by the carrier failed',
        event_key: 'pickup_failed',
        phase_key: 'info_received',
        time: '2026-06-14T18:00:00+02:00',
        timezone: null,
        location: null,
        additional_info: { carrier_code: 'NOTPICKEDUP', carrier_description: 'NOTPICKEDUP', gls_status: 'NOTPICKEDUP' },
      },
    ]);
  });

  it('an empty event list without a status is found, with no events', () => {
    expect(only('empty-events.json', '531000000282')).toEqual({ status: 'ok', tracking_number: '531000000282', events: [] });
  });

  it('offers no estimate and no proof of delivery (the API has neither)', () => {
    const result = only('delivered.json', '531000000060');
    expect(result).not.toHaveProperty('expected_delivery');
    expect(result).not.toHaveProperty('proof_of_delivery');
  });
});

describe('glsglb mapper: times and places', () => {
  it('keeps +0200 offsets as ±HH:MM and places the event', () => {
    const [first, , , last] = okEvents(only('in-transit.json', '531000000039'));
    expect(last.time).toBe('2026-06-09T04:35:10+02:00');
    expect(last.timezone).toBe('Europe/Berlin');
    expect(last.location).toMatchObject({
      place: 'Lindenau, DE',
      city: 'Lindenau',
      postal_code: '99001',
      country: 'Germany',
      country_code: 'DE',
      timezone: 'Europe/Berlin',
    });
    // Country only: the place is the country.
    expect(first.location).toMatchObject({ place: 'Germany', city: null, country_code: 'DE' });
  });

  it('an event without any place has no location', () => {
    const events = okEvents(only('delivered-parcel-shop.json', '531000000077'));
    expect(events[1].location).toBeNull();
    expect(events[1].timezone).toBeNull();
  });

  it('times without offset keep their text with the timezone of the country, across the spring change', () => {
    const events = okEvents(only('no-offset.json', '531000000145'));
    expect(events.map((e) => [e.time, e.timezone])).toEqual([
      ['2026-03-28T17:00:00', null],
      ['2026-03-29T02:30:00', 'Europe/Berlin'],
      ['2026-03-29T03:50:00', 'Europe/Vienna'],
    ]);
    // 02:30 does not exist in Berlin that night: it is read as 03:30 CEST.
    expect(events.map(utc)).toEqual(['2026-03-28T17:00:00.000Z', '2026-03-29T01:30:00.000Z', '2026-03-29T01:50:00.000Z']);
    expect(events[2].additional_info.gls_status).toBe('INTRANSIT');
    expect(events[2].event_key).toBe('arrived_at_facility');
  });

  it('orders by instant across the autumn change (02:40+02:00 before 02:10+01:00)', () => {
    const events = okEvents(only('dst.json', '531000000152'));
    expect(events.map((e) => e.time)).toEqual(['2026-10-25T02:40:00+02:00', '2026-10-25T02:10:00+01:00']);
    expect(events.map(utc)).toEqual(['2026-10-25T00:40:00.000Z', '2026-10-25T01:10:00.000Z']);
  });
});

describe('glsglb mapper: batches', () => {
  it('multi-piece: the piece whose number was asked, else the latest piece (its number noted)', () => {
    const results = mapGlsResponse(fixture('multi-piece.json'), ['531000000169', 'QX7K2M9P']);
    if (!Array.isArray(results)) throw new Error(results.message);
    const [byNumber, byTrackId] = results;
    expect(okEvents(byNumber).map((e) => e.event_key)).toEqual(['picked_up', 'out_for_delivery']);
    expect(okEvents(byNumber).every((e) => !('gls_unitno' in e.additional_info))).toBe(true);
    expect(okEvents(byTrackId).map((e) => e.event_key)).toEqual(['out_for_delivery']);
    expect(okEvents(byTrackId)[0].additional_info.gls_unitno).toBe('531000000206');
  });

  it('not found per number, from E_404_01 inside a 200', () => {
    expect(only('not-found.json', '531000000213')).toEqual({ status: 'not_found', tracking_number: '531000000213' });
  });

  it('partial answers: found, not found and a technical error per number; unmentioned numbers left out', () => {
    const results = mapGlsResponse(fixture('partial.json'), ['531000000237', '531000000244', '531000000268', '531000000299']);
    expect(results).toEqual([
      expect.objectContaining({ status: 'ok', tracking_number: '531000000237' }),
      { status: 'not_found', tracking_number: '531000000244' },
      {
        status: 'error',
        tracking_number: '531000000268',
        retryable: true,
        message: 'GLS could not answer for this number (E_500_01: Technical error)',
      },
    ]);
  });

  it('matches numbers without spaces and case', () => {
    const results = mapGlsResponse(fixture('multi-piece.json'), ['qx7k 2m9p']);
    expect(Array.isArray(results) && results[0].status).toBe('ok');
  });

  it('a body without a parcels list is one retryable error', () => {
    expect(mapGlsResponse(fixture('malformed.json'), ['531000000299'])).toEqual({
      status: 'error',
      retryable: true,
      message: 'GLS answer could not be read: it holds no parcels list',
    });
    for (const body of [null, 'text', 42, [], { parcels: null }]) expect(Array.isArray(mapGlsResponse(body, ['x']))).toBe(false);
  });

  it('skips entries and events it cannot read', () => {
    const body = {
      parcels: [
        null,
        'x',
        {
          requested: '531000000299',
          status: 42,
          statusDateTime: 'yesterday',
          events: [
            null,
            { code: 'DELIVD.NORMAL', eventDateTime: 'not a time' },
            { code: 7, eventDateTime: '2026-06-01T10:00:00+0200', country: 'ZZ', city: ['x'] },
            { eventDateTime: '2026-06-01T09:00:00+0200' },
          ],
        },
      ],
    };
    const events = okEvents((mapGlsResponse(body, ['531000000299']) as TrackResult[])[0]);
    expect(events.map((e) => [e.additional_info.carrier_code, e.time, e.location])).toEqual([
      ['UNSPECIFIED', '2026-06-01T09:00:00+02:00', null],
      ['7', '2026-06-01T10:00:00+02:00', null],
    ]);
  });

  it('mapParcelEvents never throws on odd parcels', () => {
    for (const parcel of [{}, { events: {} }, { events: [1, 'a'] }, { status: 'DELIVERED' }]) expect(mapParcelEvents(parcel)).toEqual([]);
  });
});

describe('glsglb mapper: error bodies', () => {
  it('tells the daily quota from the per-second spike arrest', () => {
    expect(isQuotaFault(fixture('quota-exceeded.json'))).toBe(true);
    expect(isQuotaFault(fixture('spike-arrest.json'))).toBe(false);
    expect(isQuotaFault({ fault: { faultstring: 'Quota limit exceeded' } })).toBe(true);
    expect(isQuotaFault({ parcels: [] })).toBe(false);
    expect(isQuotaFault('Too many requests')).toBe(false);
  });

  it('reads the API error body', () => {
    expect(problemText(fixture('bad-request.json'))).toBe('Bad Request: A requested id has an invalid format.');
    expect(problemText([])).toBe('');
  });
});
