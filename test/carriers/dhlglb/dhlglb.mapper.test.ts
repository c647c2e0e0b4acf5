import { describe, expect, it, vi } from 'vitest';
import type { CarrierEvent, TrackResult } from '../../../src/carriers/carrier.js';
import { checkTrackingNumber } from '../../../src/carriers/detect/index.js';
import { DHLGLB_CODES, DHLGLB_PHASE_ONLY, DHLGLB_UNMAPPED } from '../../../src/carriers/dhlglb/dhlglb.codes.js';
import { mapShipmentsBody, problemText, refused } from '../../../src/carriers/dhlglb/dhlglb.mapper.js';
import { countryOf, zoneOf } from '../../../src/carriers/dhlglb/dhlglb.places.js';
import { mayFetch, proofOfDelivery, sniffFileType } from '../../../src/carriers/dhlglb/dhlglb.pod.js';
import { eventKey } from '../../../src/carriers/event-key.js';
import { EVENTS } from '../../../src/carriers/phases.js';
import { oldestFirst } from '../../../src/carriers/sdk/http-carrier.js';
import { parseEventTime } from '../../../src/core/event-time.js';
import { DHL_NUMBERS, dhlFixture } from './dhlglb.fixtures.js';

function ok(result: TrackResult): Extract<TrackResult, { status: 'ok' }> {
  expect(result.status, JSON.stringify(result)).toBe('ok');
  return result as Extract<TrackResult, { status: 'ok' }>;
}

function utc(event: CarrierEvent): string {
  const parsed = parseEventTime(event.time, { timezone: event.timezone });
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.time.utc;
}

const byDescription = (events: CarrierEvent[], text: string) => {
  const found = events.find((e) => e.additional_info.carrier_description === text);
  if (!found) throw new Error(`no event "${text}"`);
  return found;
};

describe('dhlglb mapper: codes', () => {
  it('maps every documented statusCode: three to events, failure to the exception phase, unknown to nothing', () => {
    const documented = ['pre-transit', 'transit', 'delivered', 'failure', 'unknown'];
    for (const code of documented) {
      const handled = Object.hasOwn(DHLGLB_CODES, code) || Object.hasOwn(DHLGLB_PHASE_ONLY, code) || DHLGLB_UNMAPPED.includes(code);
      expect(handled, code).toBe(true);
    }
    for (const key of Object.values(DHLGLB_CODES)) expect(Object.hasOwn(EVENTS, key)).toBe(true);
  });

  it('uses synthetic numbers that pass the DHL check digits', () => {
    for (const number of Object.values(DHL_NUMBERS)) expect(checkTrackingNumber('dhlglb', number), number).toEqual({ ok: true });
  });

  it('transit and pre-transit: in transit and information received, local times placed by the country', () => {
    const result = ok(mapShipmentsBody(DHL_NUMBERS.transit, dhlFixture('transit')));
    expect(result.tracking_number).toBe(DHL_NUMBERS.transit);
    expect(result.events).toHaveLength(5);
    const arrived = byDescription(result.events, 'Arrived at DHL Delivery Facility ZWOLLEBURG - NETHERLANDS');
    expect(arrived).toMatchObject({
      event: 'In transit',
      event_key: 'in_transit',
      phase_key: 'in_transit',
      time: '2026-11-25T06:12:00',
      timezone: 'Europe/Amsterdam',
    });
    expect(arrived.location).toMatchObject({ place: 'Zwolleburg - Netherlands, NL', country_code: 'NL', timezone: 'Europe/Amsterdam' });
    expect(arrived.additional_info).toMatchObject({
      carrier_code: 'transit:ARRIVED AT DELIVERY FACILITY',
      dhl_status_code: 'transit',
      dhl_status: 'ARRIVED AT DELIVERY FACILITY',
      dhl_piece_ids: ['JD014600099887766551'],
      dhl_service: 'express',
    });
    expect(utc(arrived)).toBe('2026-11-25T05:12:00.000Z');
    const received = byDescription(result.events, 'Shipment information received');
    expect(received).toMatchObject({ event_key: 'info_received', phase_key: 'info_received', timezone: null, location: null });
  });

  it('keeps two events of one code at one moment and place apart by their titles', () => {
    const result = ok(mapShipmentsBody(DHL_NUMBERS.transit, dhlFixture('transit')));
    const departed = byDescription(result.events, 'Departed Facility in LEIPZIG - GERMANY');
    const processed = byDescription(result.events, 'Processed at LEIPZIG - GERMANY');
    expect(departed.time).toBe(processed.time);
    expect(eventKey('dhlglb', DHL_NUMBERS.transit, departed)).not.toBe(eventKey('dhlglb', DHL_NUMBERS.transit, processed));
  });

  it('delivered: times with offsets kept, a service point as the facility, and the proof of delivery link', () => {
    const link = vi.fn((l: { url: string; reference: string; signed_by?: string }, id: string) =>
      proofOfDelivery({ ...l, kind: 'document' }, id, async () => ({ status: 200, body: Buffer.from('%PDF-1.4\n') })),
    );
    const result = ok(mapShipmentsBody(DHL_NUMBERS.delivered, dhlFixture('delivered'), { proofOfDelivery: link }));
    const delivered = result.events.find((e) => e.event_key === 'delivered');
    expect(delivered).toMatchObject({
      event: 'Delivered',
      phase_key: 'delivered',
      time: '2026-11-20T14:03:00+01:00',
      timezone: 'Europe/Berlin',
    });
    expect(delivered?.location).toMatchObject({
      place: 'Musterstadt, DE',
      line1: 'Packstation 101',
      postal_code: '12345',
      location_type: 'pickup_point',
    });
    expect(result.events.filter((e) => e.event_key === 'in_transit')).toHaveLength(2);
    const noStatus = result.events.find((e) => e.event_key === 'info_received');
    expect(noStatus?.additional_info.carrier_code).toBe('pre-transit');
    expect(link).toHaveBeenCalledOnce();
    expect(link.mock.calls[0][0]).toMatchObject({
      url: 'https://webpod.dhl.com/pod?token=synthetic0000000000000000000000&language=en',
      kind: 'document',
      reference: 'dhl:340528176905:document:2026-11-20T14:03:00+01:00',
      signed_by: 'Alex Example',
    });
    expect(result.proof_of_delivery).toMatchObject({ signed_by: 'Alex Example', content_type: 'application/pdf' });
    expect(result.expected_delivery).toBeUndefined();
  });

  it('failure: the exception phase with DHL own words, no event key; UK read as GB and placed in London', () => {
    const result = ok(mapShipmentsBody(DHL_NUMBERS.failure, dhlFixture('failure')));
    const attempt = byDescription(result.events, 'Delivery attempted; recipient not home');
    expect(attempt).toMatchObject({
      event: 'Delivery attempted; recipient not home',
      event_key: null,
      phase_key: 'exception',
      time: '2026-11-23T15:20:00',
      timezone: 'Europe/London',
    });
    expect(attempt.location).toMatchObject({ place: 'Kingsbrook, GB', country_code: 'GB' });
    expect(attempt.additional_info).toMatchObject({
      dhl_remark: 'The recipient was not available.',
      dhl_next_steps: 'A new delivery attempt will be made on the next working day.',
    });
    expect(byDescription(result.events, 'Shipment is out with courier for delivery').event_key).toBe('in_transit');
  });

  it('unknown, missing and undocumented codes: no key, DHL description kept; unreadable times and non-objects left out', () => {
    const eventKeyOf = vi.fn(() => null);
    const result = ok(mapShipmentsBody(DHL_NUMBERS.unknown, dhlFixture('unknown'), { eventKeyOf }));
    expect(result.events).toHaveLength(3);
    for (const event of result.events) expect([event.event_key, event.phase_key]).toEqual([null, null]);
    // Only the undocumented code asks the table (and is counted as unmapped); "unknown" and a missing code do not.
    expect(eventKeyOf.mock.calls).toEqual([['in-flight']]);
    const countryOnly = byDescription(result.events, 'Status not available for this shipment');
    expect(countryOnly).toMatchObject({ event: 'Status not available for this shipment', time: '2026-11-22', timezone: 'Europe/Zurich' });
    expect(countryOnly.location).toMatchObject({ place: 'Switzerland', city: null, country_code: 'CH' });
    expect(countryOnly.additional_info.carrier_code).toBe('unknown:STATUS NOT AVAILABLE');
    const noCode = byDescription(result.events, 'Customs status updated');
    expect(noCode).toMatchObject({ time: '2026-11-21T18:45:00Z', timezone: null });
    expect(noCode.location).toMatchObject({ place: 'Sample Hub', country_code: null });
    expect(noCode.additional_info.carrier_code).toBe('none:customs_status_updated');
    expect(byDescription(result.events, 'Departed on a linehaul flight').additional_info.carrier_code).toBe('in-flight');
  });

  it('a returned shipment: its newest event is the return step (returnFlag), earlier ones keep their keys', () => {
    const result = ok(mapShipmentsBody(DHL_NUMBERS.returned, dhlFixture('return')));
    const back = byDescription(result.events, 'The return shipment has been delivered to the sender.');
    expect(back).toMatchObject({ event_key: 'returned_to_sender', phase_key: 'return_to_sender' });
    expect(back.additional_info).toMatchObject({ carrier_code: 'delivered', dhl_return_flag: true });
    expect(byDescription(result.events, 'The shipment is being returned to the sender.').event_key).toBe('in_transit');
  });
});

describe('dhlglb mapper: times and places', () => {
  it('offset-less times around the DST changes of Berlin: the first of a repeated hour, a skipped hour moved forward', () => {
    const result = ok(mapShipmentsBody(DHL_NUMBERS.dst, dhlFixture('dst')));
    const times = oldestFirst(result.events).map((e) => [e.time, e.timezone, utc(e)]);
    expect(times).toEqual([
      ['2026-03-29T02:30:00', 'Europe/Berlin', '2026-03-29T01:30:00.000Z'],
      ['2026-10-25T01:50:00', 'Europe/Berlin', '2026-10-24T23:50:00.000Z'],
      ['2026-10-25T02:30:00', 'Europe/Berlin', '2026-10-25T00:30:00.000Z'],
    ]);
  });

  it('US states with one zone place a time, split states do not; the Canary Islands by postal code', () => {
    const result = ok(mapShipmentsBody(DHL_NUMBERS.ecommerce, dhlFixture('ecommerce')));
    expect(byDescription(result.events, 'Arrived at DHL eCommerce Distribution Center')).toMatchObject({ timezone: 'America/Los_Angeles' });
    expect(byDescription(result.events, 'Arrived at DHL eCommerce Distribution Center').location).toMatchObject({
      place: 'Sampleton, CA, US',
      state_or_province: 'CA',
    });
    expect(byDescription(result.events, 'Processed through a sort facility in a state with two timezones').timezone).toBeNull();
    expect(byDescription(result.events, 'Label created on the Canary Islands').timezone).toBe('Atlantic/Canary');
  });

  it('zones and countries of addresses', () => {
    expect(countryOf({ countryCode: 'uk' })).toBe('GB');
    expect(countryOf({ countryCode: 'DEU' })).toBe('DE');
    expect(countryOf({ countryCode: 'XX' })).toBeNull();
    expect(countryOf({ countryCode: 7 })).toBeNull();
    expect(zoneOf({ countryCode: 'FR' })).toBe('Europe/Paris');
    expect(zoneOf({ countryCode: 'ES', postalCode: '28001' })).toBe('Europe/Madrid');
    expect(zoneOf({ countryCode: 'PT', postalCode: '9500-123' })).toBe('Atlantic/Azores');
    expect(zoneOf({ countryCode: 'PT', postalCode: '1000-001' })).toBe('Europe/Lisbon');
    expect(zoneOf({ countryCode: 'US', addressRegion: 'New York' })).toBeNull();
    expect(zoneOf({ countryCode: 'BR' })).toBeNull();
    expect(zoneOf(null)).toBeNull();
  });
});

describe('dhlglb mapper: expected delivery', () => {
  it('a local window gets the offset of the destination zone', () => {
    expect(ok(mapShipmentsBody(DHL_NUMBERS.transit, dhlFixture('transit'))).expected_delivery).toEqual({
      from: '2026-11-26T09:00:00+01:00',
      to: '2026-11-26T13:00:00+01:00',
    });
  });

  it('a day DHL writes as midnight is a day', () => {
    expect(ok(mapShipmentsBody(DHL_NUMBERS.ecommerce, dhlFixture('ecommerce'))).expected_delivery).toEqual({
      from: '2026-11-27',
      to: '2026-11-27',
    });
    const body = (fields: Record<string, unknown>) => ({ shipments: [{ id: DHL_NUMBERS.transit, events: [], ...fields }] });
    expect(ok(mapShipmentsBody(DHL_NUMBERS.transit, body({ estimatedTimeOfDelivery: '2026-11-26T00:00:00Z' }))).expected_delivery).toEqual({
      from: '2026-11-26',
      to: '2026-11-26',
    });
  });

  it('one end of a window, times with offsets, reversed ends, and unreadable values', () => {
    const body = (fields: Record<string, unknown>) => ({
      shipments: [{ id: DHL_NUMBERS.transit, destination: { address: { countryCode: 'DE' } }, events: [], ...fields }],
    });
    const map = (fields: Record<string, unknown>) => ok(mapShipmentsBody(DHL_NUMBERS.transit, body(fields))).expected_delivery;
    expect(map({ estimatedDeliveryTimeFrame: { estimatedThrough: '2026-07-01T18:00:00' } })).toEqual({
      from: '2026-07-01T18:00:00+02:00',
      to: '2026-07-01T18:00:00+02:00',
    });
    expect(
      map({ estimatedDeliveryTimeFrame: { estimatedFrom: '2026-07-01T10:00:00Z', estimatedThrough: '2026-07-01T08:00:00Z' } }),
    ).toEqual({
      from: '2026-07-01T08:00:00Z',
      to: '2026-07-01T10:00:00Z',
    });
    expect(map({ estimatedTimeOfDelivery: 'soon' })).toBeUndefined();
    expect(map({ estimatedDeliveryTimeFrame: 'tomorrow' })).toBeUndefined();
    expect(map({})).toBeUndefined();
  });
});

describe('dhlglb mapper: shipments, pieces, not found and malformed answers', () => {
  it('a piece of a multi-piece shipment: the record listing it, its own events and the shipment-wide ones', () => {
    const first = ok(mapShipmentsBody(DHL_NUMBERS.piece1, dhlFixture('multi-piece')));
    expect(first.events.map((e) => e.additional_info.carrier_description).sort()).toEqual([
      'Both pieces processed in the parcel center',
      'Piece 1 delivered',
    ]);
    expect(first.events.every((e) => e.additional_info.dhl_service === 'parcel-de')).toBe(true);
    const second = ok(mapShipmentsBody(DHL_NUMBERS.piece2, dhlFixture('multi-piece')));
    expect(second.events.map((e) => e.additional_info.carrier_description).sort()).toEqual([
      'Both pieces processed in the parcel center',
      'Piece 2 delivered',
    ]);
  });

  it('the record whose id is the number, else the first DHL lists', () => {
    const byId = ok(mapShipmentsBody(DHL_NUMBERS.expressOther, dhlFixture('multi-piece')));
    expect(byId.events.map((e) => e.additional_info.carrier_description)).toEqual(["Another division's record of the same parcel"]);
    const other = ok(mapShipmentsBody('1234567891', dhlFixture('multi-piece')));
    expect(other.events.map((e) => e.additional_info.dhl_service)).toEqual(['express']);
    expect(ok(mapShipmentsBody(' 7139 582461 ', dhlFixture('multi-piece'))).events).toHaveLength(1);
  });

  it('only a status and no events: the status is the one event; no events at all: known, nothing yet', () => {
    const statusOnly = ok(mapShipmentsBody(DHL_NUMBERS.statusOnly, dhlFixture('status-only')));
    expect(statusOnly.events).toHaveLength(1);
    expect(statusOnly.events[0]).toMatchObject({ event_key: 'info_received', time: '2026-11-24T10:00:00', timezone: 'Europe/Berlin' });
    expect(ok(mapShipmentsBody(DHL_NUMBERS.transit, dhlFixture('no-events'))).events).toEqual([]);
  });

  it('no shipment listed: not found', () => {
    expect(mapShipmentsBody(DHL_NUMBERS.transit, dhlFixture('no-shipments'))).toEqual({
      status: 'not_found',
      tracking_number: DHL_NUMBERS.transit,
    });
  });

  it('malformed answers are retryable errors, never throws', () => {
    for (const body of [dhlFixture('malformed'), null, 'text', 42, [], {}, { shipments: [1, 'two', null] }]) {
      const result = mapShipmentsBody(DHL_NUMBERS.transit, body);
      expect(result, JSON.stringify(body)).toMatchObject({ status: 'error', retryable: true, tracking_number: DHL_NUMBERS.transit });
    }
    const odd = {
      shipments: [
        {
          id: 5,
          events: [
            { timestamp: 7, statusCode: ['transit'], location: 'x' },
            { timestamp: '2026-11-01', location: { address: [] } },
          ],
        },
      ],
    };
    expect(ok(mapShipmentsBody(DHL_NUMBERS.transit, odd)).events).toHaveLength(1);
  });

  it('problem details read as DHL words them', () => {
    expect(problemText(dhlFixture('not-found'))).toBe('No result found: No shipment with given tracking number found.');
    expect(problemText('nope')).toBeNull();
    expect(refused(400, dhlFixture('refused'))).toEqual({
      status: 'error',
      retryable: false,
      message: 'DHL refused the tracking request (HTTP 400): Invalid parameter: The service parameter value is not supported.',
    });
  });
});

describe('dhlglb proof of delivery', () => {
  it('follows HTTPS links on DHL domains and the API origin only', () => {
    const api = 'https://api-eu.dhl.com';
    expect(mayFetch('https://webpod.dhl.com/pod?token=a', api)).toBe(true);
    expect(mayFetch('https://www.dhl.de/pod/1', api)).toBe(true);
    expect(mayFetch('https://dhl.com/x', api)).toBe(true);
    expect(mayFetch('http://webpod.dhl.com/pod', api)).toBe(false);
    expect(mayFetch('https://dhl.com.example.net/pod', api)).toBe(false);
    expect(mayFetch('https://notdhl.com/pod', api)).toBe(false);
    expect(mayFetch('https://user:pw@webpod.dhl.com/pod', api)).toBe(false);
    expect(mayFetch('not a url', api)).toBe(false);
    expect(mayFetch('http://127.0.0.1:4000/pod/1', 'http://127.0.0.1:4000')).toBe(true);
  });

  it('reads the file type from the bytes; a web page is refused', async () => {
    expect(sniffFileType(Buffer.from('%PDF-1.7'))).toBe('application/pdf');
    expect(sniffFileType(Buffer.from('GIF89a....'))).toBe('image/gif');
    expect(sniffFileType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffFileType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffFileType(Buffer.from('<!doctype html>'))).toBeNull();

    const link = { url: 'https://webpod.dhl.com/s', kind: 'signature' as const, reference: 'dhl:1:signature:' };
    const gif = proofOfDelivery(link, '5810932746', async () => ({ status: 200, body: Buffer.from('GIF89a-signature') }));
    expect([gif.content_type, gif.file_name]).toEqual(['image/png', 'dhl-signature-5810932746.png']);
    expect(await gif.fetch({})).toMatchObject({ status: 'ok' });
    expect([gif.content_type, gif.file_name]).toEqual(['image/gif', 'dhl-signature-5810932746.gif']);

    const page = proofOfDelivery(link, 'x', async () => ({ status: 200, body: Buffer.from('<html></html>') }));
    expect(await page.fetch({})).toMatchObject({ status: 'error', retryable: false });
    const gone = proofOfDelivery(link, 'x', async () => ({ status: 404, body: Buffer.alloc(0) }));
    expect(await gone.fetch({})).toMatchObject({ status: 'error', retryable: false });
    const failed = proofOfDelivery(link, 'x', async () => ({ status: 'error', retryable: true, message: 'timed out' }));
    expect(await failed.fetch({})).toEqual({ status: 'error', retryable: true, message: 'timed out' });
  });
});
