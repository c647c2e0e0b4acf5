import { describe, expect, it } from 'vitest';
import { AUSPOST_DOCUMENTED_STATUSES, AUSPOST_EVENT_TEXTS, AUSPOST_STATUSES } from '../../../src/carriers/auspos/auspos.codes.js';
import { AUSPOST_HOME_ZONE, keyOfText, mapTrackBody, requestErrors, statusOf } from '../../../src/carriers/auspos/auspos.mapper.js';
import { placeOfLocation } from '../../../src/carriers/auspos/auspos.places.js';
import type { CarrierEvent, TrackResult } from '../../../src/carriers/carrier.js';
import { EVENTS, isEventKey } from '../../../src/carriers/phases.js';
import { oldestFirst } from '../../../src/carriers/sdk/http-carrier.js';
import { KnownAnswers } from '../../../src/carriers/sdk/known-answers.js';
import { parseEventTime } from '../../../src/core/event-time.js';
import { auspostFixture } from './auspos.fixtures.js';

/** The results of a fixture for the numbers asked, events oldest first as the base class orders them. */
function mapAll(name: string, numbers: string[]): TrackResult[] {
  const results = mapTrackBody(auspostFixture(name).body, numbers);
  expect(results).not.toBeNull();
  return (results as TrackResult[]).map((r) => (r.status === 'ok' ? { ...r, events: oldestFirst(r.events) } : r));
}

function mapOne(name: string, number: string): TrackResult {
  const results = mapAll(name, [number]);
  expect(results).toHaveLength(1);
  return results[0];
}

function eventsOf(result: TrackResult): CarrierEvent[] {
  if (result.status !== 'ok') throw new Error(`expected ok, got ${result.status}`);
  return result.events;
}

const codes = (events: CarrierEvent[]) => events.map((e) => e.additional_info.carrier_code);
const keys = (events: CarrierEvent[]) => events.map((e) => e.event_key);

describe('Australia Post status table', () => {
  it('maps every documented status but the shipment summary, and nothing undocumented', () => {
    for (const status of AUSPOST_DOCUMENTED_STATUSES) {
      if (status === 'Track items for detailed delivery information') expect(AUSPOST_STATUSES).not.toHaveProperty(status);
      else expect(isEventKey(AUSPOST_STATUSES[status]), status).toBe(true);
    }
    const plain = Object.keys(AUSPOST_STATUSES).filter((status) => !status.includes(':'));
    expect(plain.every((status) => (AUSPOST_DOCUMENTED_STATUSES as readonly string[]).includes(status))).toBe(true);
    expect(Object.keys(AUSPOST_STATUSES).filter((status) => status.includes(':'))).toEqual(['Delivered:Awaiting collection']);
    for (const key of Object.values(AUSPOST_EVENT_TEXTS)) expect(isEventKey(key)).toBe(true);
  });

  it.each([
    ['Created', 'label_created'],
    ['Sealed', 'label_created'],
    ['Initiated', 'info_received'],
    ['In transit', 'in_transit'],
    ['Delivered', 'delivered'],
    ['Awaiting collection', 'available_for_pickup'],
    ['Possible delay', 'delayed'],
    ['Unsuccessful pickup', 'pickup_failed'],
    ['Article damaged', 'damaged'],
    ['Cancelled', 'cancelled'],
    ['Held by courier', 'delayed'],
    ['Cannot be delivered', 'address_issue'],
  ])('%s → %s', (status, key) => {
    expect(AUSPOST_STATUSES[status]).toBe(key);
  });

  it('reads statuses whatever their case, keeps undocumented ones as given, and names keys only for documented texts', () => {
    expect(statusOf('In Transit')).toBe('In transit');
    expect(statusOf('  awaiting   COLLECTION ')).toBe('Awaiting collection');
    expect(statusOf('Lodged at counter')).toBe('Lodged at counter');
    expect(statusOf('')).toBeNull();
    expect(statusOf(42)).toBeNull();
    expect(keyOfText('with australia post for delivery today')).toBe('out_for_delivery');
    expect(keyOfText('Awaiting collection')).toBe('available_for_pickup');
    expect(keyOfText('Delivered')).toBe('delivered');
    expect(keyOfText('Delivered - Left in a safe place')).toBeNull();
    expect(keyOfText('Track items for detailed delivery information')).toBeNull();
  });
});

describe('Australia Post mapper: found articles', () => {
  it('delivered: texts as codes, oldest first, keys from documented texts, the newest from its status, places and zones', () => {
    const events = eventsOf(mapOne('delivered', 'WBX9000001010020'));
    expect(codes(events)).toEqual([
      'Shipping information approved by Australia Post',
      'Received by Australia Post',
      'Processed through Australia Post facility',
      'With Australia Post for delivery today',
      'Delivered',
    ]);
    expect(keys(events)).toEqual(['info_received', null, 'in_transit', 'out_for_delivery', 'delivered']);
    expect(events[1]).toMatchObject({ event: 'Received by Australia Post', phase_key: null });
    expect(events[0].location).toBeNull();
    expect(events.at(-1)).toMatchObject({
      event: EVENTS.delivered.description,
      phase_key: 'delivered',
      time: '2026-11-18T14:43:09+11:00',
      timezone: 'Australia/Sydney',
      location: {
        place: 'Billabong Creek, AU',
        city: 'Billabong Creek',
        state_or_province: 'NSW',
        country_code: 'AU',
        location_type: null,
      },
      additional_info: { carrier_code: 'Delivered', carrier_description: 'Delivered' },
    });
    expect(events[1].location).toMatchObject({ place: 'Koala Heights, AU', timezone: 'Australia/Melbourne' });
  });

  it('a Parcel Locker: the newest event takes the status, available for pickup at the locker', () => {
    const events = eventsOf(mapOne('parcel-locker', 'WBX9000002010020'));
    expect(keys(events)).toEqual(['info_received', 'in_transit', 'out_for_delivery', 'available_for_pickup']);
    expect(events.at(-1)).toMatchObject({
      event: EVENTS.available_for_pickup.description,
      phase_key: 'available_for_pickup',
      location: { place: 'Parcel Locker 104123 Koala Heights, AU', location_type: 'pickup_point', state_or_province: 'VIC' },
      additional_info: { carrier_code: 'Item ready for collection', carrier_description: 'Item ready for collection' },
    });
    // Earlier events are no pick-up places.
    expect(events[2].location?.location_type).toBeNull();
  });

  it('a Post Office after a card: waiting for collection, then collected by the recipient', () => {
    const events = eventsOf(mapOne('collected', 'WBX9000003010020'));
    expect(keys(events)).toEqual([
      'info_received',
      'in_transit',
      'out_for_delivery',
      null,
      'available_for_pickup',
      'collected_by_recipient',
    ]);
    expect(events[3]).toMatchObject({ event: 'Attempted delivery - card left', event_key: null });
    expect(events[4].location).toMatchObject({
      place: 'Gumtree Gully Post Shop, AU',
      location_type: 'pickup_point',
      timezone: 'Australia/Brisbane',
    });
    expect(events[5]).toMatchObject({ phase_key: 'delivered', additional_info: { carrier_code: 'Collected from Post Office' } });
  });

  it('every status of a batch, whatever its case; an undocumented one keeps the text and no key', () => {
    const numbers = Array.from({ length: 10 }, (_, i) => `WBX90000${String(6 + i).padStart(2, '0')}010020`);
    const results = mapAll('statuses', numbers);
    expect(results.map((r) => r.tracking_number)).toEqual(numbers);
    const newest = results.map((r) => eventsOf(r).at(-1)?.event_key);
    expect(newest).toEqual([
      'delayed',
      'pickup_failed',
      'damaged',
      'cancelled',
      'delayed',
      'address_issue',
      'label_created',
      'label_created',
      'out_for_delivery', // `In Transit` says less than the text
      null,
    ]);
    expect(eventsOf(results[9])).toEqual([
      expect.objectContaining({
        event: 'Lodged at Post Office',
        event_key: null,
        time: '2026-11-20T10:15:00+09:30',
        timezone: 'Australia/Darwin',
      }),
    ]);
    expect(eventsOf(results[5]).at(-1)?.location).toMatchObject({ state_or_province: 'SA', timezone: 'Australia/Adelaide' });
    expect(eventsOf(results[8]).at(-1)?.location).toMatchObject({ state_or_province: 'WA', timezone: 'Australia/Perth' });
  });

  it('found without events (Initiated): ok and nothing to show', () => {
    expect(mapOne('empty-events', 'WBX9000016010020')).toEqual({ status: 'ok', tracking_number: 'WBX9000016010020', events: [] });
  });

  it('international: places abroad with their country, one of two identical scans kept, the text that names a key', () => {
    const events = eventsOf(mapOne('in-transit-international', 'RR900001014AU'));
    expect(codes(events)).toEqual([
      'Shipping information approved by Australia Post',
      'Departed facility',
      'Arrived at facility in destination country',
      'Cleared customs',
    ]);
    expect(keys(events)).toEqual(['info_received', 'departed_facility', 'arrived_at_facility', 'in_transit']);
    expect(events[1].location).toMatchObject({
      place: 'Auckland, NZ',
      line1: 'AUCKLAND AIRPORT/AUCKLAND',
      country_code: 'NZ',
      timezone: 'Pacific/Auckland',
    });
    expect(events[1].timezone).toBe('Pacific/Auckland');
    expect(events[2].location).toMatchObject({ place: 'Melbourne, AU', country_code: 'AU', state_or_province: null });
    expect(events[2].timezone).toBeNull();
  });

  it('times without offset: local text in the state’s zone (Queensland keeps no summer time), else Australia Post’s', () => {
    const events = eventsOf(mapOne('times-without-offset', 'WBX9000004010020'));
    // 02:30 in Melbourne falls in the hour summer time skips, read as 03:30+11:00: the same instant as 02:30 in
    // Brisbane, listed after it by Australia Post (newest first), so it comes first here.
    expect(events.map((e) => [e.time, e.timezone])).toEqual([
      ['2026-10-03', AUSPOST_HOME_ZONE],
      ['2026-10-04T01:50:00', 'Australia/Melbourne'],
      ['2026-10-04T03:10:00+11:00', 'Australia/Melbourne'],
      ['2026-10-04T02:30:00', 'Australia/Melbourne'],
      ['2026-10-04T02:30:00', 'Australia/Brisbane'],
    ]);
    for (const event of events) expect(parseEventTime(event.time, { timezone: event.timezone }).ok).toBe(true);
    expect(keys(events)).toEqual(['info_received', null, 'departed_facility', null, 'in_transit']);
  });

  it('the end of summer time: 02:40+11:00 happens before 02:10+10:00, whatever the order listed', () => {
    const events = eventsOf(mapOne('dst-autumn', 'WBX9000018010020'));
    expect(events.map((e) => e.time)).toEqual(['2026-04-04T16:00:00+11:00', '2026-04-05T02:40:00+11:00', '2026-04-05T02:10:00+10:00']);
    expect(keys(events)).toEqual(['info_received', 'in_transit', 'departed_facility']);
  });
});

describe('Australia Post mapper: consignments', () => {
  it('asked by consignment: every article’s events, shared scans once, no status for the summary', () => {
    const events = eventsOf(mapOne('consignment', 'WBX9000005'));
    expect(codes(events)).toEqual([
      'Shipping information approved by Australia Post',
      'Processed through Australia Post facility',
      'Delivered - Left in a safe place',
      'Processed through Australia Post facility',
    ]);
    expect(events.map((e) => e.additional_info.article_id)).toEqual([
      'WBX9000005010011',
      'WBX9000005010011',
      'WBX9000005010011',
      'WBX9000005020020',
    ]);
    // "Track items for detailed delivery information" names no key: the newest keeps its text's key.
    expect(keys(events)).toEqual(['info_received', 'in_transit', null, 'in_transit']);
  });

  it('asked by an article of it: that article alone, with its own status', () => {
    // An answer for the consignment is no answer for the article.
    expect(mapTrackBody(auspostFixture('consignment').body, ['WBX9000005010011'])).toEqual([]);
    const body = auspostFixture('consignment').body as { tracking_results: Array<Record<string, unknown>> };
    body.tracking_results[0].tracking_id = 'WBX9000005010011';
    const [article] = mapTrackBody(body, ['WBX9000005010011']) as TrackResult[];
    const events = oldestFirst(eventsOf(article));
    expect(keys(events)).toEqual(['info_received', 'in_transit', 'delivered']);
    expect(events.every((e) => e.additional_info.article_id === undefined)).toBe(true);
  });

  it('a StarTrack consignment: its own events and its articles’, its status read whatever the case', () => {
    const events = eventsOf(mapOne('startrack-consignment', 'ZQW900000001'));
    expect(codes(events)).toEqual(['In transit', 'Delivery attempted', 'Awaiting collection']);
    expect(keys(events)).toEqual(['in_transit', null, 'available_for_pickup']);
    expect(events[2].location).toMatchObject({ location_type: 'pickup_point', place: 'Gumtree Gully, AU' });
  });
});

describe('Australia Post mapper: errors and odd answers', () => {
  it('a partial batch: found, not found (ESB-10001), not trackable (ESB-10002), a system error (ESB-20010)', () => {
    const results = mapAll('batch-partial', ['WBX9000017010020', 'CX900002023AU', 'LX900003032AU', 'EE900004041AU']);
    expect(results.map((r) => r.status)).toEqual(['ok', 'not_found', 'error', 'error']);
    expect(results[2]).toMatchObject({ retryable: false, message: expect.stringContaining('ESB-10002 Product Not Trackable') });
    expect(results[3]).toMatchObject({ retryable: true, message: expect.stringContaining('ESB-20010 System Error') });
  });

  it('the documented not-found answer', () => {
    expect(mapOne('not-found', 'WBX9000099010020')).toEqual({ status: 'not_found', tracking_number: 'WBX9000099010020' });
  });

  it('matches ids whatever their spacing and case, answers each number once, and skips ids not asked', () => {
    const body = auspostFixture('delivered').body as { tracking_results: Array<Record<string, unknown>> };
    body.tracking_results.push({ ...body.tracking_results[0] }, { tracking_id: 'NOT-ASKED', errors: [] });
    const results = mapTrackBody(body, ['wbx 9000 0010 1002 0']) as TrackResult[];
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ status: 'ok', tracking_number: 'wbx 9000 0010 1002 0' });
  });

  it('a lone entry without tracking_id answers the only number asked', () => {
    const body = { tracking_results: [{ errors: [{ code: 'ESB-10001' }] }] };
    expect(mapTrackBody(body, ['WBX9000099010020'])).toEqual([{ status: 'not_found', tracking_number: 'WBX9000099010020' }]);
    expect(mapTrackBody(body, ['WBX9000099010020', 'WBX9000001010020'])).toEqual([]);
  });

  it('entries with nothing readable: a retryable error; a status alone: found without events', () => {
    const body = {
      tracking_results: [{ tracking_id: 'A1' }, { tracking_id: 'B2', status: 'Created' }, { tracking_id: 'C3', errors: [{}] }],
    };
    const results = mapTrackBody(body, ['A1', 'B2', 'C3']) as TrackResult[];
    expect(results.map((r) => r.status)).toEqual(['error', 'ok', 'error']);
    expect(results[0]).toMatchObject({ retryable: true, message: 'Australia Post answered no tracking data for this number' });
  });

  it('events without a text or a readable time are left out', () => {
    const body = {
      tracking_results: [
        {
          tracking_id: 'A1',
          status: 'In transit',
          trackable_items: [
            {
              article_id: 'A1',
              events: [
                { description: 'Processed through Australia Post facility', date: 'yesterday' },
                { date: '2026-11-20T10:00:00+11:00' },
                { description: '   ', date: '2026-11-20T10:00:00+11:00' },
                { description: 'Received by Australia Post', date: '2026-11-20T09:00:00+11:00', location: 7 },
                'not an event',
              ],
            },
          ],
        },
      ],
    };
    const [result] = mapTrackBody(body, ['A1']) as TrackResult[];
    expect(eventsOf(result)).toEqual([
      expect.objectContaining({
        event: EVENTS.in_transit.description,
        location: null,
        additional_info: { carrier_code: 'Received by Australia Post', carrier_description: 'Received by Australia Post' },
      }),
    ]);
  });

  it('not a "Track items" answer: null', () => {
    for (const body of [null, 'text', [], {}, { tracking_results: {} }, { errors: [{ code: '51101' }] }]) {
      expect(mapTrackBody(body, ['A1'])).toBeNull();
    }
  });

  it('reads request errors in both documented shapes', () => {
    expect(requestErrors(auspostFixture('too-many-ids').body)).toEqual([
      {
        code: '51101',
        text: '51101 TOO_MANY_AP_TRACKING_IDS The request must contain 10 or less AP article ids, consignment ids, or barcode ids.',
      },
    ]);
    expect(requestErrors(auspostFixture('throttled').body)).toEqual([{ code: 'API_002', text: 'API_002 Too many requests' }]);
    expect(requestErrors('Unauthorized')).toEqual([]);
  });

  it('an entry as stored is answered unchanged, not mapped; another entry is mapped', () => {
    const body = auspostFixture('batch-partial').body as { tracking_results: unknown[] };
    const first = new KnownAnswers('auspos', [{ tracking_number: 'WBX9000017010020' }]);
    first.same('WBX9000017010020', body.tracking_results[0] as object);
    const fingerprint = first.fingerprintOf('WBX9000017010020');
    const known = new KnownAnswers('auspos', [{ tracking_number: 'WBX9000017010020', known_answer: fingerprint }]);
    const results = mapTrackBody(body, ['WBX9000017010020', 'CX900002023AU'], undefined, (n, data) => known.same(n, data)) as TrackResult[];
    expect(results[0]).toEqual({ status: 'unchanged', tracking_number: 'WBX9000017010020' });
    expect(results[1].status).toBe('not_found');
  });
});

describe('Australia Post places', () => {
  it.each([
    ['ALEXANDRIA NSW', { place: 'Alexandria, AU', state_or_province: 'NSW', timezone: 'Australia/Sydney' }],
    ['Sydney,NSW', { place: 'Sydney, AU', state_or_province: 'NSW' }],
    ['HOBART TAS 7000', { place: 'Hobart, AU', postal_code: '7000', timezone: 'Australia/Hobart' }],
    ['CANBERRA ACT', { place: 'Canberra, AU', timezone: 'Australia/Sydney' }],
    ['SYDNEY (AU)', { place: 'Sydney, AU', state_or_province: null, timezone: null }],
    ['JOHN F. KENNEDY APT/NEW YORK (US)', { place: 'New York, US', line1: 'JOHN F. KENNEDY APT/NEW YORK', timezone: null }],
    ['LONDON (GBR)', { place: 'London, GB', timezone: 'Europe/London' }],
    ['INTERNATIONAL MAIL CENTRE', { place: 'INTERNATIONAL MAIL CENTRE', country_code: null }],
    ['SOMEWHERE (ZZ)', { place: 'SOMEWHERE (ZZ)', country_code: null }],
  ])('%s', (text, expected) => {
    expect(placeOfLocation(text).location).toMatchObject(expected);
  });

  it('no text, no place', () => {
    expect(placeOfLocation(null)).toEqual({ location: null, timezone: null });
  });
});
