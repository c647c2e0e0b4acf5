import { describe, expect, it } from 'vitest';
import type { CarrierEvent, ProofOfDelivery, TrackResult } from '../../../src/carriers/carrier.js';
import { isEventKey } from '../../../src/carriers/phases.js';
import { ROYALM_CODES, ROYALM_PICKUP_CODES } from '../../../src/carriers/royalm/royalm.codes.js';
import {
  mapEventsAnswer,
  mapExpectedDelivery,
  type RoyalmMapOptions,
  readSummary,
  royalmTime,
  zoneOf,
} from '../../../src/carriers/royalm/royalm.mapper.js';
import { royalmFixture } from './fixtures.js';

const proofOfDelivery: RoyalmMapOptions['proofOfDelivery'] = (mailPieceId, notice) =>
  ({
    reference: notice.reference,
    file_name: `${mailPieceId}-signature.png`,
    content_type: 'image/png',
    fetch: async () => ({ status: 'error', retryable: false, message: 'not in this test' }),
  }) satisfies ProofOfDelivery;

function mapped(number: string, fixture: string): Extract<TrackResult, { status: 'ok' }> {
  const result = mapEventsAnswer(number, 200, royalmFixture(fixture), { proofOfDelivery });
  if (result.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result;
}

const codes = (events: CarrierEvent[]) => events.map((e) => `${e.additional_info.carrier_code}:${e.event_key}`);

describe('Royal Mail mapper: events answers', () => {
  it('a signed-for item: keys, places, UK zone, window, signature with the signer', () => {
    const result = mapped('QA900000019GB', 'events-delivered');
    expect(codes(result.events)).toEqual([
      'EVKSP:delivered',
      'EVGPD:out_for_delivery',
      'EVIMC:arrived_at_facility',
      'EVDAC:arrived_at_facility',
      'EVPPA:picked_up',
      'EVAIP:info_received',
    ]);
    expect(result.events[0]).toMatchObject({
      event: 'Delivered',
      phase_key: 'delivered',
      time: '2026-11-18T11:42:10+00:00',
      timezone: 'Europe/London',
      location: { place: 'Sampleford DO', country_code: 'GB', country: 'United Kingdom', location_type: null },
      additional_info: { carrier_code: 'EVKSP', carrier_description: 'Delivered and signed for', location_name: 'Sampleford DO' },
    });
    // The sender's announcement has no place.
    expect(result.events[5].location).toBeNull();
    expect(result.expected_delivery).toEqual({ from: '2026-11-18T09:00:00+00:00', to: '2026-11-18T13:00:00+00:00' });
    expect(result.proof_of_delivery).toMatchObject({ reference: 'signature:QA900000019GB:900019', signed_by: 'TESTER' });
  });

  it('no proof of delivery is offered without the adapter’s download, nor for an item without a signature', () => {
    const without = mapEventsAnswer('QA900000019GB', 200, royalmFixture('events-delivered'));
    expect(without.status === 'ok' && without.proof_of_delivery).toBeUndefined();
    expect(mapped('QA900000022GB', 'events-neighbour').proof_of_delivery).toBeUndefined();
  });

  it('a signature link on a delivered item is enough to offer the download', () => {
    const body = royalmFixture('events-delivered');
    const piece = body.mailPieces as Record<string, unknown>;
    delete piece.signature;
    const result = mapEventsAnswer('QA900000019GB', 200, body, { proofOfDelivery });
    expect(result.status === 'ok' && result.proof_of_delivery).toMatchObject({ reference: 'signature:QA900000019GB:linked' });
    expect(result.status === 'ok' && result.proof_of_delivery?.signed_by).toBeUndefined();
  });

  it('delivered to a neighbour, in summer time', () => {
    const result = mapped('QA900000022GB', 'events-neighbour');
    expect(codes(result.events)).toEqual(['EVKDN:delivered_to_neighbour', 'EVGPD:out_for_delivery', 'EVDAV:arrived_at_facility']);
    expect(result.events[0]).toMatchObject({
      time: '2026-07-14T13:05:00+01:00',
      timezone: 'Europe/London',
      event: 'Delivered to a neighbour',
    });
    expect(result.expected_delivery).toBeUndefined();
  });

  it('a failed attempt, then waiting at the delivery office: available for pickup there', () => {
    const result = mapped('QA900000036GB', 'events-attempted');
    expect(codes(result.events)).toEqual(['EVNDA:available_for_pickup', 'EVKNA:delivery_attempt_failed', 'EVGPD:out_for_delivery']);
    expect(result.events[0].location).toMatchObject({ place: 'Sampleford DO', location_type: 'pickup_point', country_code: 'GB' });
    // A window without offset is London time, written with the offset then (BST).
    expect(result.expected_delivery).toEqual({ from: '2026-07-16T10:30:00+01:00', to: '2026-07-16T14:30:00+01:00' });
  });

  it('Local Collect: available at the Post Office, then collected', () => {
    const result = mapped('QA900000040GB', 'events-local-collect');
    expect(codes(result.events)).toEqual([
      'EVPLC:collected_by_recipient',
      'EVPLA:available_for_pickup',
      'EVDAV:arrived_at_facility',
      'EVPPA:picked_up',
    ]);
    expect(result.events[1]).toMatchObject({
      event: 'Available for pickup',
      time: '2026-11-19T12:44:00Z',
      timezone: 'Europe/London',
      location: { place: 'Sampleford Post Office', line1: 'Sampleford Post Office', location_type: 'pickup_point' },
    });
    expect(result.events[0].location?.location_type).toBeNull();
  });

  it('gone away and back with the sender', () => {
    const result = mapped('QA900000053GB', 'events-returned');
    expect(codes(result.events)).toEqual([
      'EVRTS:returned_to_sender',
      'EVNGA:returning_to_sender',
      'EVKGA:address_issue',
      'EVGPD:out_for_delivery',
    ]);
  });

  it('abroad: offsets without colon read, no UK place or zone for scans abroad, a day as the estimate', () => {
    const result = mapped('QA900000067GB', 'events-international');
    expect(codes(result.events)).toEqual([
      'EVJIA:customs_cleared',
      'EVJIC:in_customs',
      'EVJOE:arrived_at_facility',
      'EVHOE:departed_facility',
      'EVDAV:arrived_at_facility',
    ]);
    expect(result.events[0]).toMatchObject({
      time: '2026-11-23T09:30:00+01:00',
      timezone: null,
      location: { place: 'Frankfurt ILC', country_code: null },
    });
    expect(result.events[3]).toMatchObject({ time: '2026-11-21T19:20:00Z', timezone: 'Europe/London' });
    expect(result.expected_delivery).toEqual({ from: '2026-11-26', to: '2026-11-26' });
  });

  it('codes the table lacks keep Royal Mail’s text; events without a code or a readable time are left out', () => {
    const result = mapped('QA900000075GB', 'events-unmapped');
    expect(result.events.map((e) => [e.additional_info.carrier_code, e.event_key, e.event])).toEqual([
      ['EVQQQ', null, 'A scan our table does not know'],
      ['NRDSS', null, 'Ready for delivery notification sent'],
      ['EVDAC', 'arrived_at_facility', 'Arrived at a carrier facility'],
    ]);
  });

  it('clock changes: the repeated autumn hour twice, the spring gap, a time without offset in London', () => {
    const result = mapped('QA900000084GB', 'events-dst');
    expect(result.events.map((e) => [e.time, e.timezone])).toEqual([
      ['2026-03-29T02:01:00+01:00', 'Europe/London'],
      ['2026-03-29T00:59:00Z', 'Europe/London'],
      ['2025-10-26T01:30:00+00:00', 'Europe/London'],
      ['2025-10-26T01:30:00+01:00', 'Europe/London'],
      ['2025-10-25T22:00:00', 'Europe/London'],
    ]);
    // 00:30 is still GMT on the day the clocks go forward at 01:00; 03:30 is BST.
    expect(result.expected_delivery).toEqual({ from: '2026-03-29T00:30:00+00:00', to: '2026-03-29T03:30:00+01:00' });
  });

  it('an item without events, and one asked by its 2D barcode', () => {
    expect(mapped('QA900000098GB', 'events-empty').events).toEqual([]);
    expect(codes(mapped('0B9A8C7D6E5F40302010A', 'events-2d').events)).toEqual(['EVKSF:delivered', 'EVGPD:out_for_delivery']);
  });
});

describe('Royal Mail mapper: answers without a mail piece', () => {
  it('an unknown barcode (E1142) is not found, with a 404 or a 400; any 404 too', () => {
    const body = royalmFixture('not-found');
    expect(mapEventsAnswer('QA900000994GB', 404, body)).toEqual({ status: 'not_found', tracking_number: 'QA900000994GB' });
    expect(mapEventsAnswer('QA900000994GB', 400, { ...body, httpCode: '400' })).toEqual({
      status: 'not_found',
      tracking_number: 'QA900000994GB',
    });
    expect(mapEventsAnswer('QA900000994GB', 404, {})).toEqual({ status: 'not_found', tracking_number: 'QA900000994GB' });
  });

  it('another 400 is a lasting error quoting Royal Mail; a 200 without a mail piece can be retried', () => {
    const refused = mapEventsAnswer('QA900000019GB', 400, royalmFixture('bad-request'));
    expect(refused).toMatchObject({ status: 'error', retryable: false });
    expect(refused.status === 'error' && refused.message).toContain('E0004');
    expect(mapEventsAnswer('QA900000019GB', 200, royalmFixture('malformed'))).toMatchObject({ status: 'error', retryable: true });
  });
});

describe('Royal Mail mapper: summary answers', () => {
  it('one verdict per number: found (by the number asked or its 1D barcode), unknown, failed, missing', () => {
    const asked = ['QA900000019GB', 'QA900000994GB', '0B9A8C7D6E5F40302010A', 'QA900000115GB', 'QA900000124GB', 'qa 900000107gb'];
    const verdicts = readSummary(royalmFixture('summary-batch'), asked);
    expect(verdicts && [...verdicts.entries()].map(([n, v]) => [n, v.kind === 'answered' ? v.result.status : v.kind])).toEqual([
      ['QA900000019GB', 'found'],
      ['QA900000994GB', 'not_found'],
      ['0B9A8C7D6E5F40302010A', 'found'],
      ['QA900000115GB', 'error'],
      ['QA900000124GB', 'missing'],
      ['qa 900000107gb', 'found'],
    ]);
    expect(verdicts?.get('QA900000115GB')).toMatchObject({ kind: 'answered', result: { retryable: true } });
  });

  it('a body without a list of mail pieces is no summary answer', () => {
    expect(readSummary(royalmFixture('unauthorized'), ['QA900000019GB'])).toBeNull();
    expect(readSummary({ mailPieces: {} }, ['QA900000019GB'])).toBeNull();
    expect(readSummary(null, ['QA900000019GB'])).toBeNull();
  });
});

describe('Royal Mail mapper: times and windows', () => {
  it('reads ISO times with every offset form and refuses others', () => {
    expect(royalmTime('2016-10-20T10:04:00+01:00')).toBe('2016-10-20T10:04:00+01:00');
    expect(royalmTime('2016-10-21T07:30:00+0000')).toBe('2016-10-21T07:30:00+00:00');
    expect(royalmTime('2016-10-21T07:30:00Z')).toBe('2016-10-21T07:30:00Z');
    expect(royalmTime('20/10/2016 10:04')).toBeNull();
    expect(royalmTime(42)).toBeNull();
  });

  it('names London only where the offset is London’s', () => {
    expect(zoneOf('2026-07-01T12:00:00+01:00')).toBe('Europe/London');
    expect(zoneOf('2026-01-01T12:00:00+01:00')).toBeNull();
    expect(zoneOf('2026-01-01T12:00:00')).toBe('Europe/London');
  });

  it('a window out of order, or unreadable, falls back to the day; no day, no estimate', () => {
    expect(
      mapExpectedDelivery({
        estimatedDelivery: { date: '2026-11-18', startOfEstimatedWindow: '13:00:00Z', endOfEstimatedWindow: '09:00:00Z' },
      }),
    ).toEqual({ from: '2026-11-18', to: '2026-11-18' });
    expect(mapExpectedDelivery({ estimatedDelivery: { date: '2026-11-18', startOfEstimatedWindow: 'soon' } })).toEqual({
      from: '2026-11-18',
      to: '2026-11-18',
    });
    // Whole date-times (as some clients show them) are read too.
    expect(
      mapExpectedDelivery({
        estimatedDelivery: {
          date: '2017-02-20T00:00:00+00:00',
          startOfEstimatedWindow: '2017-02-20T08:00:00+01:00',
          endOfEstimatedWindow: '2017-02-20T11:00:00+01:00',
        },
      }),
    ).toEqual({ from: '2017-02-20T08:00:00+01:00', to: '2017-02-20T11:00:00+01:00' });
    expect(mapExpectedDelivery({ estimatedDelivery: { startOfEstimatedWindow: '08:00:00Z' } })).toBeUndefined();
    expect(mapExpectedDelivery({})).toBeUndefined();
  });
});

describe('Royal Mail code table', () => {
  it('maps five-letter codes to our event keys; pick-up codes to available_for_pickup', () => {
    for (const [code, key] of Object.entries(ROYALM_CODES)) {
      expect(code).toMatch(/^[A-Z]{5}$/);
      expect(isEventKey(key), `${code} → ${key}`).toBe(true);
    }
    for (const code of ROYALM_PICKUP_CODES) expect(ROYALM_CODES[code]).toBe('available_for_pickup');
  });

  it('holds the codes named in Royal Mail’s documentation and the integrators’ notes', () => {
    expect(ROYALM_CODES).toMatchObject({
      EVNMI: 'in_transit',
      EVDAC: 'arrived_at_facility',
      EVDAV: 'arrived_at_facility',
      EVGPD: 'out_for_delivery',
      EVKSP: 'delivered',
      EVKOP: 'delivered',
      EVKNA: 'delivery_attempt_failed',
      EVKNR: 'delivery_attempt_failed',
      EVPLA: 'available_for_pickup',
      EVPLC: 'collected_by_recipient',
      EVNRT: 'rescheduled',
    });
  });
});
