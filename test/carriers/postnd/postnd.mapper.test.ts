import { describe, expect, it } from 'vitest';
import type { CarrierEvent, TrackResult } from '../../../src/carriers/carrier.js';
import { isEventKey } from '../../../src/carriers/phases.js';
import { POSTNORD_CODES, POSTNORD_DOCUMENTED_STATUSES, POSTNORD_UNMAPPED_STATUSES } from '../../../src/carriers/postnd/postnd.codes.js';
import {
  faultsText,
  isPostnordIdentifier,
  mapTrackingBody,
  normalizeIdentifier,
  POSTNORD_HOME_ZONE,
  pickParcel,
} from '../../../src/carriers/postnd/postnd.mapper.js';
import { oldestFirst } from '../../../src/carriers/sdk/http-carrier.js';
import { parseEventTime } from '../../../src/core/event-time.js';
import { postndFixture } from './fixtures.js';

const map = (name: string, number: string): TrackResult => mapTrackingBody(number, postndFixture(name));

function eventsOf(result: TrackResult): CarrierEvent[] {
  if (result.status !== 'ok') throw new Error(`expected ok, got ${result.status}`);
  return oldestFirst(result.events);
}

const keys = (result: TrackResult) => eventsOf(result).map((e) => [e.additional_info.carrier_code, e.event_key]);

describe('PostNord code table', () => {
  it('lists every status of the OpenAPI document, mapped or deliberately left out', () => {
    for (const status of POSTNORD_DOCUMENTED_STATUSES) {
      expect(Object.hasOwn(POSTNORD_CODES, status) || POSTNORD_UNMAPPED_STATUSES.includes(status), status).toBe(true);
    }
    const plain = Object.keys(POSTNORD_CODES).filter((code) => !code.includes(':'));
    expect(plain.every((code) => (POSTNORD_DOCUMENTED_STATUSES as readonly string[]).includes(code))).toBe(true);
    expect(POSTNORD_UNMAPPED_STATUSES.every((code) => !Object.hasOwn(POSTNORD_CODES, code))).toBe(true);
  });

  it('maps only to our event keys; the one composite is ours, after a wait at a service point', () => {
    for (const [code, key] of Object.entries(POSTNORD_CODES)) expect(isEventKey(key), `${code} → ${key}`).toBe(true);
    expect(Object.keys(POSTNORD_CODES).filter((code) => code.includes(':'))).toEqual(['DELIVERED:AVAILABLE_FOR_DELIVERY']);
  });
});

describe('PostNord mapper: statuses', () => {
  it('announced: the sender’s information, with the estimated day of arrival', () => {
    const result = map('informed', '90000000101SE');
    expect(keys(result)).toEqual([['8', 'info_received']]);
    expect(result.status === 'ok' && result.expected_delivery).toEqual({ from: '2026-11-19', to: '2026-11-19' });
  });

  it('in transit across a border, listed newest first: ordered, each time in its own country’s zone', () => {
    const events = eventsOf(map('in-transit', 'RR900000019SE'));
    expect(events.map((e) => [e.additional_info.carrier_code, e.event_key, e.time, e.timezone])).toEqual([
      // No country on the announcement: the recipient's (Finland) places it.
      ['8', 'info_received', '2026-11-16T09:00:00', 'Europe/Helsinki'],
      // A time with its offset keeps it.
      ['21', 'in_transit', '2026-11-17T13:05:00Z', 'Europe/Stockholm'],
      ['31', 'in_transit', '2026-11-17T21:40:00', 'Europe/Stockholm'],
      ['32', 'in_transit', '2026-11-18T06:15:00', 'Europe/Helsinki'],
    ]);
    expect(events[3].location).toMatchObject({
      place: 'Vantaa, FI',
      line1: 'Vantaa terminal',
      city: 'Vantaa',
      country_code: 'FI',
      location_type: 'POSTAL_SERVICE_TERMINAL',
      timezone: 'Europe/Helsinki',
    });
    expect(events[3].additional_info).toMatchObject({
      status: 'EN_ROUTE',
      location_id: '1209',
      location_type: 'POSTAL_SERVICE_TERMINAL',
      carrier_description: 'The parcel has arrived at the terminal in Vantaa.',
    });
    expect(events[3].event).toBe('In transit');
  });

  it('the estimate of a time with an offset is the day it falls on where the parcel goes', () => {
    // 2026-11-19T23:30Z is 01:30 on the 20th in Helsinki (the recipient's country).
    const result = map('in-transit', 'RR900000019SE');
    expect(result.status === 'ok' && result.expected_delivery).toEqual({ from: '2026-11-20', to: '2026-11-20' });
  });

  it('service point: ready for pickup there (the service point is the place), then collected', () => {
    const result = map('service-point', 'UA900000022SE');
    expect(keys(result)).toEqual([
      ['8', 'info_received'],
      ['31', 'in_transit'],
      ['40', 'available_for_pickup'],
      ['41', 'collected_by_recipient'],
    ]);
    const [, , waiting, collected] = eventsOf(result);
    expect(waiting.location).toMatchObject({
      place: 'Göteborg, SE',
      line1: 'Grocery Storgatan',
      postal_code: '41101',
      location_type: 'SERVICE_POINT',
      latitude: '57.7065',
      longitude: '11.9671',
    });
    expect(collected).toMatchObject({ event: 'Collected by the recipient', phase_key: 'delivered' });
    expect(collected.additional_info).toMatchObject({ carrier_code: '41', status: 'DELIVERED' });
    expect(result.status === 'ok' && result.expected_delivery).toBeUndefined();
  });

  it('parcel locker: the event names no service point, so the shipment’s delivery point is the place', () => {
    const result = map('parcel-locker', '00373900000000000037');
    expect(keys(result)).toEqual([
      ['31', 'in_transit'],
      ['46', 'available_for_pickup'],
    ]);
    const waiting = eventsOf(result)[1];
    expect(waiting.location).toMatchObject({
      place: 'København K, DK',
      line1: 'Parcel locker Nørreport',
      postal_code: '1165',
      location_type: 'SERVICE_POINT',
      timezone: 'Europe/Copenhagen',
    });
    expect(waiting.additional_info).toMatchObject({
      status: 'AVAILABLE_FOR_DELIVERY_PAR_LOC',
      location_type: 'DELIVERY_POINT',
      service_point_id: 'DK-3301',
      service_point_type: 'PARCEL_LOCKER',
      service_point_street: 'Nørregade 10',
    });
    expect(result.status === 'ok' && result.expected_delivery).toEqual({ from: '2026-11-18', to: '2026-11-18' });
  });

  it('delivered at home: no estimate once delivered; the delivery run is in transit (its event code is not documented)', () => {
    const result = map('delivered', '90000000505SE');
    expect(keys(result)).toEqual([
      ['8', 'info_received'],
      ['31', 'in_transit'],
      ['113', 'in_transit'],
      ['42', 'delivered'],
    ]);
    expect(result.status === 'ok' && result.expected_delivery).toBeUndefined();
  });

  it('exceptions: delays, a stop, a failed attempt; OTHER and an event without status keep PostNord’s text', () => {
    const result = map('exceptions', '90000000606SE');
    expect(keys(result)).toEqual([
      ['51', 'delayed'],
      ['52', 'delayed'],
      ['53', 'delayed'],
      ['54', 'delivery_attempt_failed'],
      ['55', null],
      ['99', null],
    ]);
    const [, , , , other, bare] = eventsOf(result);
    expect(other).toMatchObject({ event: 'A note about the parcel.', phase_key: null, timezone: 'Europe/Oslo' });
    // A code alone is a place too.
    expect(bare.location).toMatchObject({ place: '3010', city: null });
    // The event at an impossible time (25:00) is left out.
    expect(eventsOf(result)).toHaveLength(6);
  });

  it('refused, then returned', () => {
    expect(keys(map('returned', 'LX900000075DK'))).toEqual([
      ['31', 'in_transit'],
      ['57', 'refused_by_recipient'],
      ['58', 'returning_to_sender'],
    ]);
  });

  it('times around the clock changes stay as PostNord wrote them, placed in Stockholm', () => {
    const events = eventsOf(map('dst', '90000000909SE'));
    expect(events.map((e) => e.time)).toEqual(['2026-03-29T02:30:00', '2026-10-25T01:50:00', '2026-10-25T02:10:00', '2026-10-25T02:30:00']);
    for (const event of events) expect(event.timezone).toBe(POSTNORD_HOME_ZONE);
    const utc = events.map((e) => {
      const parsed = parseEventTime(e.time, { timezone: e.timezone });
      return parsed.ok ? parsed.time.utc : null;
    });
    // 02:30 on 29 March does not exist (moved forward by the gap); 02:10 and 02:30 on 25 October are their first occurrence.
    expect(utc).toEqual(['2026-03-29T01:30:00.000Z', '2026-10-24T23:50:00.000Z', '2026-10-25T00:10:00.000Z', '2026-10-25T00:30:00.000Z']);
  });

  it('no events, no estimate: an empty journey', () => {
    expect(map('empty-events', '90000001010SE')).toEqual({ status: 'ok', tracking_number: '90000001010SE', events: [] });
  });
});

describe('PostNord mapper: which parcel a number stands for', () => {
  it('a shipment ID with several items: every item’s events, each naming its item', () => {
    const events = eventsOf(map('multi-item', '90000000808SE'));
    expect(events.map((e) => [e.additional_info.item_id, e.additional_info.carrier_code, e.event_key])).toEqual([
      ['00373900000000000082', '31', 'in_transit'],
      ['00373900000000000099', '31', 'in_transit'],
      ['00373900000000000099', '51', 'delayed'],
      ['00373900000000000082', '42', 'delivered'],
    ]);
  });

  it('an item ID: that item alone, with the shipment’s estimate while it travels', () => {
    const travelling = map('multi-item', '00373900000000000099');
    expect(keys(travelling)).toEqual([
      ['31', 'in_transit'],
      ['51', 'delayed'],
    ]);
    expect(eventsOf(travelling).every((e) => e.additional_info.item_id === undefined)).toBe(true);
    expect(travelling.status === 'ok' && travelling.expected_delivery).toEqual({ from: '2026-11-19', to: '2026-11-19' });
    const delivered = map('multi-item', '00373900000000000082');
    expect(keys(delivered).at(-1)).toEqual(['42', 'delivered']);
    expect(delivered.status === 'ok' && delivered.expected_delivery).toBeUndefined();
  });

  it('numbers are matched however they were written', () => {
    const shipments = [{ shipmentId: 'S1', items: [{ itemId: 'RR900000019SE' }] }];
    expect(pickParcel(shipments, 'rr 9000-0001 9se')?.items).toEqual([{ itemId: 'RR900000019SE' }]);
    expect(pickParcel([], 'RR900000019SE')).toBeNull();
    // An answer naming neither: the first shipment PostNord gave for the number.
    expect(pickParcel([{ shipmentId: 'A', items: [] }, { shipmentId: 'B' }], 'X')?.shipment.shipmentId).toBe('A');
  });

  it('identifiers as PostNord takes them: 10 to 35 letters and digits', () => {
    expect(normalizeIdentifier(' rr-900 000 019se ')).toBe('RR900000019SE');
    expect(isPostnordIdentifier('RR900000019SE')).toBe(true);
    expect(isPostnordIdentifier('00373900000000000037')).toBe(true);
    expect(isPostnordIdentifier('RR90000')).toBe(false);
    expect(isPostnordIdentifier('RR900000019SE/1')).toBe(false);
    expect(isPostnordIdentifier('A'.repeat(36))).toBe(false);
  });
});

describe('PostNord mapper: answers without a parcel', () => {
  it('an empty shipment list is not found', () => {
    expect(map('not-found', '90000009999SE')).toEqual({ status: 'not_found', tracking_number: '90000009999SE' });
  });

  it('a body that is no tracking answer is a retryable error', () => {
    expect(map('malformed', '90000000101SE')).toMatchObject({ status: 'error', retryable: true });
    expect(mapTrackingBody('90000000101SE', null)).toMatchObject({ status: 'error', retryable: true });
    expect(mapTrackingBody('90000000101SE', { TrackingInformationResponse: [] })).toMatchObject({ status: 'error' });
  });

  it('faults are quoted from an error answer or a tracking answer', () => {
    expect(faultsText(postndFixture('invalid-id'))).toBe('API-001: The identifier is not valid');
    expect(faultsText({ TrackingInformationResponse: { compositeFault: { faults: [{ explanationText: 'No match' }] } } })).toBe('No match');
    expect(faultsText('nothing')).toBe('');
  });

  it('odd values are read defensively', () => {
    const body = {
      TrackingInformationResponse: {
        shipments: [
          {
            shipmentId: 'X1234567890',
            estimatedTimeOfArrival: 'soon',
            items: [
              {
                itemId: 'X1234567890',
                events: [
                  null,
                  { eventTime: '2026-11-16T10:00:00', eventCode: 7, status: ' en_route ', location: 'nowhere' },
                  { eventTime: 20261116, eventCode: '8', status: 'EN_ROUTE' },
                  { eventTime: '2026-11-16T11:00:00' },
                  {
                    eventTime: '2026-11-16T12:00:00',
                    eventCode: '9',
                    status: 'EN_ROUTE',
                    location: { locationId: '1', locationType: 'HUB', countryCode: 'XX' },
                    geoLocation: { geoNorthing: 200, geoEasting: '11', geoReferenceSystem: 'WGS84' },
                  },
                ],
              },
            ],
          },
        ],
      },
    };
    const result = mapTrackingBody('X1234567890', body);
    expect(result.status === 'ok' && result.expected_delivery).toBeUndefined();
    const events = eventsOf(result);
    expect(events.map((e) => [e.additional_info.carrier_code, e.event_key, e.timezone])).toEqual([
      ['7', 'in_transit', POSTNORD_HOME_ZONE],
      ['9', 'in_transit', POSTNORD_HOME_ZONE],
    ]);
    expect(events[1].location).toMatchObject({ place: '1', latitude: null, longitude: null, country_code: null });
  });
});
