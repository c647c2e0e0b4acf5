import { describe, expect, it } from 'vitest';
import type { CarrierEvent, ProofOfDelivery, TrackResult } from '../../../src/carriers/carrier.js';
import { isEventKey } from '../../../src/carriers/phases.js';
import {
  POSTNL_CODES,
  POSTNL_EVENT_CODES,
  POSTNL_STATUS_CODES,
  POSTNL_UNMAPPED_STATUS_CODES,
} from '../../../src/carriers/postnl/postnl.codes.js';
import { mapStatusBody, POSTNL_TIMEZONE, pickShipment, postnlTime } from '../../../src/carriers/postnl/postnl.mapper.js';
import { imageTypeOf, mapSignatureBody } from '../../../src/carriers/postnl/postnl.signature.js';
import { oldestFirst } from '../../../src/carriers/sdk/http-carrier.js';
import { parseEventTime } from '../../../src/core/event-time.js';
import { postnlFixture } from './fixtures.js';

function map(name: string, number: string, options: Parameters<typeof mapStatusBody>[2] = {}): TrackResult {
  return mapStatusBody(number, postnlFixture(name), options);
}

function eventsOf(result: TrackResult): CarrierEvent[] {
  if (result.status !== 'ok') throw new Error(`expected ok, got ${result.status}`);
  return oldestFirst(result.events);
}

const keys = (result: TrackResult) => eventsOf(result).map((e) => [e.additional_info.carrier_code, e.event_key]);

const stubProof = (barcode: string): ProofOfDelivery => ({
  reference: `signature:${barcode}`,
  file_name: `${barcode}-signature.png`,
  content_type: 'image/png',
  fetch: async () => ({ status: 'ok', content: Buffer.alloc(0) }),
});

describe('PostNL code table', () => {
  // Every status code of PostNL's T&T status code table (and the statuses its event table adds: 27, 28, 31).
  const documented = [
    '1',
    '2',
    '3',
    '4',
    '5',
    '6',
    '7',
    '8',
    '9',
    '11',
    '12',
    '13',
    '14',
    '15',
    '16',
    '17',
    '18',
    '19',
    '20',
    '21',
    '22',
    '23',
    '27',
    '28',
    '31',
    '99',
  ];

  it('lists every documented status code, mapped or deliberately left out', () => {
    for (const code of documented) {
      expect(Object.hasOwn(POSTNL_STATUS_CODES, code) || POSTNL_UNMAPPED_STATUS_CODES.includes(code), code).toBe(true);
    }
    expect(Object.keys(POSTNL_STATUS_CODES).every((code) => documented.includes(code))).toBe(true);
  });

  it('maps only to our event keys; event codes are a letter and two digits, status codes digits', () => {
    for (const [code, key] of Object.entries(POSTNL_CODES)) expect(isEventKey(key), `${code} → ${key}`).toBe(true);
    for (const code of Object.keys(POSTNL_EVENT_CODES)) expect(code).toMatch(/^[A-Z]\d{2}$/);
    for (const code of Object.keys(POSTNL_STATUS_CODES)) expect(code).toMatch(/^\d{1,2}$/);
  });
});

describe('PostNL mapper: codes by family', () => {
  it('collection: announced, then handed to PostNL', () => {
    expect(keys(map('collection', '3SDEVC410000001'))).toEqual([
      ['A01', 'info_received'],
      ['B01', 'picked_up'],
    ]);
  });

  it('sorting: a recipient’s choice, sorted, line haul', () => {
    expect(keys(map('in-transit', '3SDEVC410000002'))).toEqual([
      ['A08', 'rescheduled'],
      ['J01', 'in_transit'],
      ['J45', 'in_transit'],
    ]);
  });

  it('distribution: out for delivery, then a failed attempt', () => {
    expect(keys(map('out-for-delivery', '3SDEVC410000003'))).toEqual([
      ['J05', 'out_for_delivery'],
      ['J08', 'delivery_attempt_failed'],
    ]);
  });

  it('pickup point: attempt failed, ready at a PostNL point, collected', () => {
    expect(keys(map('pickup-point', '3SDEVC410000004'))).toEqual([
      ['K70', 'delivery_attempt_failed'],
      ['I08', 'available_for_pickup'],
      ['I22', 'collected_by_recipient'],
    ]);
  });

  it('delivered: a whole journey sent newest first, ending with the neighbours', () => {
    const events = eventsOf(map('delivered', '3SDEVC410000005'));
    expect(events.map((e) => [e.additional_info.carrier_code, e.event_key])).toEqual([
      ['A01', 'info_received'],
      ['B01', 'picked_up'],
      ['J01', 'in_transit'],
      ['J05', 'out_for_delivery'],
      ['I10', 'delivered_to_neighbour'],
    ]);
    expect(events.at(-1)).toMatchObject({ event: 'Delivered to a neighbour', phase_key: 'delivered' });
    expect(events.at(-1)?.additional_info).toMatchObject({ carrier_description: 'Delivered at the neighbours', status_code: '4:11' });
  });

  it('return: refused, going back, back with the sender', () => {
    expect(keys(map('returned', '3SDEVC410000006'))).toEqual([
      ['H01', 'refused_by_recipient'],
      ['H20', 'returning_to_sender'],
      ['J63', 'returned_to_sender'],
    ]);
  });

  it('customs: on the way in, declared, cleared', () => {
    expect(keys(map('customs', '3SDEVC410000007'))).toEqual([
      ['A75', 'in_transit'],
      ['X60', 'in_customs'],
      ['X61', 'customs_cleared'],
    ]);
  });

  it('exceptions: delayed, address problem, damaged, missing', () => {
    expect(keys(map('exceptions', '3SDEVC410000008'))).toEqual([
      ['V06', 'delayed'],
      ['Y01', 'address_issue'],
      ['Y04', 'damaged'],
      ['Y71', 'lost'],
    ]);
  });

  it('cancelled: the label expired', () => {
    expect(keys(map('cancelled', '3SDEVC410000009'))).toEqual([
      ['A01', 'info_received'],
      ['M03', 'cancelled'],
    ]);
  });

  it('a status without a scan is an event of its own, coded PhaseCode:StatusCode', () => {
    const [event] = eventsOf(map('current-status', '3SDEVC410000010'));
    expect(event).toMatchObject({
      event: 'Out for delivery',
      event_key: 'out_for_delivery',
      phase_key: 'out_for_delivery',
      time: '2025-11-20T08:41:17',
      timezone: POSTNL_TIMEZONE,
      location: null,
    });
    expect(event.additional_info).toEqual({
      carrier_code: '3:7',
      carrier_description: 'Parcel out for delivery',
      status_code: '7',
      phase_code: '3',
      phase_description: 'Distribution',
    });
  });

  it('codes not in the table: keyed by the status at the same moment, else kept with PostNL’s text', () => {
    const counted: string[][] = [];
    const result = map('unmapped', '3SDEVC410000011', {
      code: (codes) => {
        counted.push(codes.filter((c): c is string => typeof c === 'string'));
        for (const c of codes) if (c && Object.hasOwn(POSTNL_CODES, c)) return POSTNL_CODES[c];
        return null;
      },
    });
    const events = eventsOf(result);
    expect(events.map((e) => [e.additional_info.carrier_code, e.event_key, e.event])).toEqual([
      ['99:99', null, 'Not applicable'],
      ['A27', 'in_transit', 'In transit'],
      ['J80', null, 'No delivery scan yet'],
    ]);
    expect(counted).toContainEqual(['A27', '2:5', '5']);
    expect(counted).toContainEqual(['J80']);
  });

  it('leaves out an event whose time is no calendar date', () => {
    const events = eventsOf(map('unmapped', '3SDEVC410000011'));
    expect(events.some((e) => e.time.startsWith('2025-11-31'))).toBe(false);
    expect(events).toHaveLength(3);
  });
});

describe('PostNL mapper: times and places', () => {
  it('reads dd-MM-yyyy HH:mm:ss as Dutch local time, without offset', () => {
    const [first] = eventsOf(map('collection', '3SDEVC410000001'));
    expect(first.time).toBe('2025-11-17T19:02:11');
    expect(first.timezone).toBe('Europe/Amsterdam');
    const parsed = parseEventTime(first.time, { timezone: first.timezone });
    expect(parsed.ok && parsed.time.utc).toBe('2025-11-17T18:02:11.000Z');
  });

  it('accepts ISO texts and refuses ambiguous slashed dates', () => {
    expect(postnlTime('2025-11-19T14:15:00')).toBe('2025-11-19T14:15:00');
    expect(postnlTime('19-11-2025 14:15:00')).toBe('2025-11-19T14:15:00');
    expect(postnlTime('11/07/2022 10:00:00')).toBeNull();
    expect(postnlTime({})).toBeNull();
    expect(postnlTime('31-02-2025 10:00:00')).toBeNull();
  });

  it('orders times across the autumn clock change by their instant (a repeated hour is its first occurrence)', () => {
    const events = eventsOf(map('dst', '3SDEVC410000012'));
    const utc = events.map((e) => {
      const parsed = parseEventTime(e.time, { timezone: e.timezone });
      return parsed.ok ? parsed.time.utc : null;
    });
    expect(events.map((e) => e.time)).toEqual(['2025-10-26T01:45:00', '2025-10-26T02:30:00', '2025-10-26T03:15:00', '2026-03-29T02:30:00']);
    expect(utc).toEqual(['2025-10-25T23:45:00.000Z', '2025-10-26T00:30:00.000Z', '2025-10-26T02:15:00.000Z', '2026-03-29T01:30:00.000Z']);
  });

  it('gives a code-only place for PostNL’s numeric location codes and keeps the codes', () => {
    const events = eventsOf(map('in-transit', '3SDEVC410000002'));
    const sorted = events.find((e) => e.additional_info.carrier_code === 'J01');
    expect(sorted?.location).toMatchObject({ place: '210157', city: null, country_code: null, timezone: null });
    expect(sorted?.additional_info).toMatchObject({ location_code: '210157', destination_location_code: '230114' });
  });

  it('keeps route details, and no place when PostNL gives no location code', () => {
    const events = eventsOf(map('out-for-delivery', '3SDEVC410000003'));
    expect(events[0].additional_info).toMatchObject({ route_code: '415', route: '415 Zwolle Oost', location_code: '230114' });
    const expired = eventsOf(map('cancelled', '3SDEVC410000009')).find((e) => e.additional_info.carrier_code === 'M03');
    expect(expired?.location).toBeNull();
  });

  it('treats PostNL’s `{}` placeholders as absent', () => {
    const events = eventsOf(map('collection', '3SDEVC410000001'));
    expect(events[0].additional_info).not.toHaveProperty('route_code');
    expect(events[0].additional_info).not.toHaveProperty('route');
  });
});

describe('PostNL mapper: expected delivery', () => {
  it('an ISO window gets the offset Amsterdam has then', () => {
    const result = map('in-transit', '3SDEVC410000002');
    expect(result.status === 'ok' && result.expected_delivery).toEqual({
      from: '2025-11-19T14:15:00+01:00',
      to: '2025-11-19T16:45:00+01:00',
    });
  });

  it('a day-first window is read the same way', () => {
    const result = map('out-for-delivery', '3SDEVC410000003');
    expect(result.status === 'ok' && result.expected_delivery).toEqual({
      from: '2025-11-19T14:15:00+01:00',
      to: '2025-11-19T16:45:00+01:00',
    });
  });

  it('a window across the spring gap has a different offset at each end', () => {
    const result = map('dst', '3SDEVC410000012');
    expect(result.status === 'ok' && result.expected_delivery).toEqual({
      from: '2026-03-29T01:30:00+01:00',
      to: '2026-03-29T03:30:00+02:00',
    });
  });

  it('without a window, the delivery date', () => {
    const result = map('current-status', '3SDEVC410000010');
    expect(result.status === 'ok' && result.expected_delivery).toEqual({ from: '2025-11-20', to: '2025-11-20' });
  });

  it('none when PostNL gives neither', () => {
    const result = map('returned', '3SDEVC410000006');
    expect(result.status === 'ok' && result.expected_delivery).toBeUndefined();
  });
});

describe('PostNL mapper: pieces, not found, malformed', () => {
  it('picks the piece whose barcode was asked for', () => {
    expect(keys(map('multi-piece', '3SDEVC410000013'))).toEqual([['J05', 'out_for_delivery']]);
    expect(keys(map('multi-piece', '3SDEVC410000014'))).toEqual([['J22', 'delayed']]);
    expect(keys(map('multi-piece', '3sdevc 410000014'))).toEqual([['J22', 'delayed']]);
  });

  it('asked by the main barcode, the main piece; a single piece whatever its barcode', () => {
    const pieces = [
      { Barcode: 'B', MainBarcode: 'M' },
      { Barcode: 'M', MainBarcode: 'M' },
    ];
    expect(pickShipment(pieces, 'M')).toBe(pieces[1]);
    expect(pickShipment([{ Barcode: 'B' }], 'OTHER')).toEqual({ Barcode: 'B' });
    expect(pickShipment([{ Barcode: 'A' }, { Barcode: 'B' }], 'OTHER')).toBeNull();
  });

  it('warnings without a shipment are not found', () => {
    expect(map('not-found', '3SDEVC419999999')).toEqual({ status: 'not_found', tracking_number: '3SDEVC419999999' });
    expect(mapStatusBody('3SDEVC419999999', { CompleteStatus: { Shipment: null } })).toEqual({
      status: 'not_found',
      tracking_number: '3SDEVC419999999',
    });
  });

  it('a body that is no status answer is a retryable error', () => {
    for (const body of [postnlFixture('malformed'), null, [], 'text', 42, {}]) {
      const result = mapStatusBody('3SDEVC410000001', body);
      expect(result).toMatchObject({ status: 'error', retryable: true, tracking_number: '3SDEVC410000001' });
    }
  });

  it('a shipment without events or statuses has no events', () => {
    expect(map('empty-events', '3SDEVC410000015')).toEqual({ status: 'ok', tracking_number: '3SDEVC410000015', events: [] });
  });
});

describe('PostNL mapper: proof of delivery', () => {
  it('offers the signature of a delivered parcel', () => {
    const result = map('delivered', '3SDEVC410000005', { proofOfDelivery: stubProof });
    expect(result.status === 'ok' && result.proof_of_delivery?.reference).toBe('signature:3SDEVC410000005');
  });

  it('offers none before delivery', () => {
    const result = map('in-transit', '3SDEVC410000002', { proofOfDelivery: stubProof });
    expect(result.status === 'ok' && result.proof_of_delivery).toBeUndefined();
  });

  it('reads PNG and GIF signatures for what they are', () => {
    const png = mapSignatureBody(postnlFixture('signature'));
    expect(png).toMatchObject({ status: 'ok', content_type: 'image/png' });
    const gif = mapSignatureBody(postnlFixture('signature-gif'));
    expect(gif).toMatchObject({ status: 'ok', content_type: 'image/gif' });
    expect(gif.status === 'ok' && gif.content.subarray(0, 6).toString('latin1')).toBe('GIF89a');
  });

  it('no signature, junk or no image: a failure that is not retried', () => {
    expect(mapSignatureBody(postnlFixture('signature-missing'))).toEqual({
      status: 'error',
      retryable: false,
      message: 'PostNL has no signature for this parcel (W2: No signature for this barcode)',
    });
    expect(mapSignatureBody({ Signature: { SignatureImage: 'not base64!' } })).toMatchObject({ status: 'error', retryable: false });
    expect(mapSignatureBody({ Signature: { SignatureImage: Buffer.from('plain text').toString('base64') } })).toMatchObject({
      status: 'error',
      retryable: false,
    });
    expect(imageTypeOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
  });
});
