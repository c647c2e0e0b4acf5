import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CarrierEvent, TrackResult } from '../../../src/carriers/carrier.js';
import { isEventKey } from '../../../src/carriers/phases.js';
import { oldestFirst } from '../../../src/carriers/sdk/http-carrier.js';
import { UPS_CODES, UPS_DESCRIBED_ONLY } from '../../../src/carriers/upsglb/upsglb.codes.js';
import { mapActivity, mapTrackResponse } from '../../../src/carriers/upsglb/upsglb.mapper.js';
import { imageTypeOf } from '../../../src/carriers/upsglb/upsglb.pod.js';
import { parseEventTime } from '../../../src/core/event-time.js';
import { fixture, NUMBERS } from './ups-server.js';

function ok(result: ReturnType<typeof mapTrackResponse>): Extract<TrackResult, { status: 'ok' }> {
  if (result.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result;
}

/** Events oldest first, as the base class hands them on. */
function events(name: string, number: string): CarrierEvent[] {
  return oldestFirst(ok(mapTrackResponse(fixture(name), number)).events);
}

const codeOf = (event: CarrierEvent) => event.additional_info.carrier_code;
const utc = (event: CarrierEvent) => {
  const parsed = parseEventTime(event.time, { timezone: event.timezone });
  return parsed.ok ? parsed.time.utc : null;
};

describe('UPS mapping: codes by family', () => {
  it('a domestic delivery: label, pickup, transit, destination, out for delivery, loaded, delivered', () => {
    const list = events('delivered', NUMBERS.delivered);
    expect(list.map((e) => e.event_key)).toEqual([
      'label_created',
      'picked_up',
      'in_transit',
      'arrived_at_facility',
      'out_for_delivery',
      'out_for_delivery',
      'delivered',
    ]);
    expect(list.map((e) => e.phase_key)).toEqual([
      'info_received',
      'in_transit',
      'in_transit',
      'in_transit',
      'out_for_delivery',
      'out_for_delivery',
      'delivered',
    ]);
    const delivered = list.at(-1) as CarrierEvent;
    expect(delivered.event).toBe('Delivered');
    expect(delivered.additional_info).toEqual({
      carrier_code: '011:KB',
      carrier_description: 'DELIVERED',
      status_type: 'D',
      activity_code: 'KB',
      status_code: '011',
      slic: '4301',
    });
  });

  it('customs: clearance in progress, import scan, released, cleared', () => {
    const list = events('in-transit', NUMBERS.inTransit);
    expect(list.map((e) => [codeOf(e).slice(0, 3), e.event_key])).toEqual([
      ['003', 'label_created'],
      ['038', 'picked_up'],
      ['005', 'in_transit'],
      ['012', 'in_customs'],
      ['092', 'in_customs'],
      ['014', 'customs_cleared'],
      ['084', 'customs_cleared'],
      ['010', 'in_transit'],
    ]);
  });

  it('exceptions: refused, damaged, address, delays, held; general ones keep UPS’s words', () => {
    const byCode = new Map(events('exceptions', NUMBERS.exceptions).map((e) => [e.additional_info.status_code ?? codeOf(e), e]));
    expect(byCode.get('064')?.event_key).toBe('refused_by_recipient');
    expect(byCode.get('059')?.event_key).toBe('damaged');
    expect(byCode.get('050')?.event_key).toBe('address_issue');
    expect(byCode.get('029')?.event_key).toBe('address_issue');
    for (const code of ['052', '051', '048', '046', '016']) expect(byCode.get(code)?.event_key).toBe('delayed');
    for (const code of ['064', '059', '050', '029', '052', '016']) expect(byCode.get(code)?.phase_key).toBe('exception');
    // Described only: no key even though the type letter (I) alone would say in transit.
    for (const code of ['013', '027', '028']) {
      expect(byCode.get(code)?.event_key).toBeNull();
      expect(byCode.get(code)?.phase_key).toBeNull();
    }
    expect(byCode.get('027')?.event).toBe('Delivery Address Change Requested');
    expect(byCode.get('013')?.event).toBe('Exception: update');
  });

  it('unknown status codes fall back to the type letter; an exception letter alone maps to nothing', () => {
    const byCode = new Map(events('exceptions', NUMBERS.exceptions).map((e) => [codeOf(e), e]));
    expect(byCode.get('098:Q8')?.event_key).toBe('in_transit');
    expect(byCode.get('098:Q8')?.additional_info.carrier_description).toBe('Moving through the network');
    expect(byCode.get('099:Q9')?.event_key).toBeNull();
    expect(byCode.get('099:Q9')?.event).toBe('A status UPS has not documented');
    // No status code at all: the type letter is the code.
    expect(byCode.get('P')?.event_key).toBe('picked_up');
  });

  it('drops an activity without a date instead of inventing a time', () => {
    const list = events('exceptions', NUMBERS.exceptions);
    expect(list.some((e) => e.additional_info.carrier_description === 'An activity without a date')).toBe(false);
    expect(list).toHaveLength(15);
  });

  it('failed attempts, held for pickup, delivered to an Access Point', () => {
    const list = events('attempts', NUMBERS.attempts);
    expect(list.map((e) => [codeOf(e).slice(0, 3), e.event_key, e.phase_key])).toEqual([
      ['021', 'out_for_delivery', 'out_for_delivery'],
      ['022', 'delivery_attempt_failed', 'failed_attempt'],
      ['021', 'out_for_delivery', 'out_for_delivery'],
      ['023', 'delivery_attempt_failed', 'failed_attempt'],
      ['021', 'out_for_delivery', 'out_for_delivery'],
      ['024', 'delivery_attempt_failed', 'failed_attempt'],
      ['060', 'delivery_attempt_failed', 'failed_attempt'],
      ['017', 'available_for_pickup', 'available_for_pickup'],
      ['040', 'available_for_pickup', 'available_for_pickup'],
    ]);
  });

  it('returns: returning to sender, then returned', () => {
    const list = events('returns', NUMBERS.returns);
    expect(list.map((e) => [codeOf(e).slice(0, 3), e.event_key])).toEqual([
      ['022', 'delivery_attempt_failed'],
      ['033', 'returning_to_sender'],
      ['035', 'returning_to_sender'],
      ['036', 'returning_to_sender'],
      ['034', 'returned_to_sender'],
      ['067', 'returned_to_sender'],
    ]);
    expect(list.slice(1).every((e) => e.phase_key === 'return_to_sender')).toBe(true);
  });

  it('label created, on its way to UPS, voided', () => {
    const list = events('cancelled', NUMBERS.cancelled);
    expect(list.map((e) => e.event_key)).toEqual(['label_created', 'info_received', 'cancelled']);
    expect(list.at(-1)?.phase_key).toBe('exception');
    expect(list.at(-1)?.additional_info.status_type).toBe('MV');
  });

  it('every code of the table is a known event key, and none is both mapped and kept as described', () => {
    for (const code of UPS_DESCRIBED_ONLY) expect(Object.hasOwn(UPS_CODES, code)).toBe(false);
    for (const key of Object.values(UPS_CODES)) expect(isEventKey(key)).toBe(true);
    // The codes docs/carriers/upsglb.md lists, and the type letters.
    const listed =
      '003 044 038 005 010 025 071 012 092 014 084 021 072 022 023 024 060 017 040 011 026 029 050 016 046 048 051 052 059 064 007 033 035 036 034 067 D I P M';
    expect(Object.keys(UPS_CODES).sort()).toEqual(listed.split(' ').sort());
  });

  it('pads a status code UPS sends without its leading zeros', () => {
    const event = mapActivity({ date: '20261104', time: '101500', gmtOffset: '-05:00', status: { type: 'I', statusCode: '21' } });
    expect(event?.event_key).toBe('out_for_delivery');
    expect(event?.additional_info.carrier_code).toBe('021');
  });
});

describe('UPS mapping: times', () => {
  it('keeps the local time with its offset', () => {
    const list = events('delivered', NUMBERS.delivered);
    expect(list.at(-1)?.time).toBe('2026-11-04T14:35:12-05:00');
    expect(list.at(-1)?.timezone).toBe('America/New_York');
    expect(list[0].time).toBe('2026-11-02T09:44:00-05:00');
  });

  it('derives the offset from UTC date and time when gmtOffset is missing', () => {
    const cleared = events('in-transit', NUMBERS.inTransit).find((e) => codeOf(e).startsWith('084'));
    expect(cleared?.time).toBe('2026-11-10T22:00:00-06:00');
  });

  it('without any offset, keeps the local text and the place’s timezone (state in the US, country elsewhere)', () => {
    const list = events('in-transit', NUMBERS.inTransit);
    const released = list.find((e) => codeOf(e).startsWith('014'));
    expect(released).toMatchObject({ time: '2026-11-10T18:00:00', timezone: 'America/Chicago' });
    expect(utc(released as CarrierEvent)).toBe('2026-11-11T00:00:00.000Z');
    const pickup = list.find((e) => e.event_key === 'picked_up');
    expect(pickup).toMatchObject({ time: '2026-11-09T10:15:00', timezone: 'Europe/Berlin' });
    expect(utc(pickup as CarrierEvent)).toBe('2026-11-09T09:15:00.000Z');
  });

  it('orders the repeated hour of a DST change by instant, not by wall clock', () => {
    const list = events('dst', NUMBERS.dst);
    expect(list.map((e) => e.time)).toEqual([
      '2026-10-31T20:00:00-04:00',
      '2026-11-01T01:30:00-04:00',
      '2026-11-01T01:45:00',
      '2026-11-01T01:15:00-05:00',
    ]);
    expect(list.map(utc)).toEqual([
      '2026-11-01T00:00:00.000Z',
      '2026-11-01T05:30:00.000Z',
      // A repeated wall time without offset is read as its first occurrence (EDT).
      '2026-11-01T05:45:00.000Z',
      '2026-11-01T06:15:00.000Z',
    ]);
  });

  it('reads a time written without its leading zero, and keeps the date of an unreadable time', () => {
    expect(mapActivity({ date: '20261104', time: '74700', gmtOffset: '-05:00', status: { type: 'I', statusCode: '005' } })?.time).toBe(
      '2026-11-04T07:47:00-05:00',
    );
    expect(mapActivity({ date: '20261104', time: '996000', status: { type: 'I', statusCode: '005' } })?.time).toBe('2026-11-04');
    expect(mapActivity({ date: '2026110', time: '101500', status: { type: 'I' } })).toBeNull();
  });
});

describe('UPS mapping: places', () => {
  it('a city with state, postal code and country', () => {
    const delivered = events('delivered', NUMBERS.delivered).at(-1);
    expect(delivered?.location).toMatchObject({
      place: 'Maple Ridge, OH, US',
      city: 'Maple Ridge',
      state_or_province: 'OH',
      postal_code: '43001',
      country_code: 'US',
      country: 'United States of America',
      timezone: 'America/New_York',
    });
  });

  it('a country alone, a facility code alone, and a city outside the US', () => {
    const exceptions = events('exceptions', NUMBERS.exceptions);
    const slicOnly = exceptions.find((e) => e.additional_info.slic === '8566');
    expect(slicOnly?.location?.place).toBe('SLIC 8566');
    expect(slicOnly?.timezone).toBeNull();
    expect(exceptions.find((e) => codeOf(e).startsWith('046'))?.location?.place).toBe('United States of America');
    const label = events('in-transit', NUMBERS.inTransit)[0];
    expect(label.location).toMatchObject({ place: 'Germany', country_code: 'DE', city: null });
    expect(events('in-transit', NUMBERS.inTransit)[1].location?.place).toBe('Kleinfelden, DE');
  });
});

describe('UPS mapping: expected delivery', () => {
  it('the scheduled date narrowed by an estimated window', () => {
    expect(ok(mapTrackResponse(fixture('in-transit'), NUMBERS.inTransit)).expected_delivery).toEqual({
      from: '2026-11-13T09:00:00',
      to: '2026-11-13T13:00:00',
    });
  });

  it('the rescheduled date over the scheduled one, ending at the commit time', () => {
    expect(ok(mapTrackResponse(fixture('attempts'), NUMBERS.attempts)).expected_delivery).toEqual({
      from: '2026-11-20',
      to: '2026-11-20T10:30:00',
    });
  });

  it('a day alone at end of day; none once delivered', () => {
    expect(ok(mapTrackResponse(fixture('empty-events'), NUMBERS.emptyEvents)).expected_delivery).toEqual({
      from: '2026-11-25',
      to: '2026-11-25',
    });
    expect(ok(mapTrackResponse(fixture('delivered'), NUMBERS.delivered)).expected_delivery).toBeUndefined();
  });
});

describe('UPS mapping: proof of delivery', () => {
  it('the signature image as a GIF, signed by the receiver', async () => {
    const proof = ok(mapTrackResponse(fixture('delivered'), NUMBERS.delivered)).proof_of_delivery;
    expect(proof).toMatchObject({
      content_type: 'image/gif',
      file_name: `${NUMBERS.delivered}-signature.gif`,
      signed_by: 'QUILLFEATHER',
    });
    expect(proof?.reference).toMatch(/^ups-signature-[0-9a-f]{24}$/);
    const fetched = await proof?.fetch({});
    expect(fetched?.status).toBe('ok');
    if (fetched?.status === 'ok') expect(imageTypeOf(fetched.content)).toBe('image/gif');
    // Same bytes, same reference: the service stores it once.
    expect(ok(mapTrackResponse(fixture('delivered'), NUMBERS.delivered)).proof_of_delivery?.reference).toBe(proof?.reference);
  });

  it('a delivery photo when there is no signature; no signer when UPS names none', () => {
    const proof = ok(mapTrackResponse(fixture('delivered-photo'), NUMBERS.deliveredPhoto)).proof_of_delivery;
    expect(proof).toMatchObject({ content_type: 'image/jpeg', file_name: `${NUMBERS.deliveredPhoto}-photo.jpg` });
    expect(proof?.signed_by).toBeUndefined();
  });

  it('nothing when the image is not an image', () => {
    const body = fixture('delivered') as { trackResponse: { shipment: Array<{ package: Array<Record<string, unknown>> }> } };
    body.trackResponse.shipment[0].package[0].deliveryInformation = {
      signature: { image: Buffer.from('not an image').toString('base64') },
    };
    expect(ok(mapTrackResponse(body, NUMBERS.delivered)).proof_of_delivery).toBeUndefined();
  });
});

describe('UPS mapping: pieces, unknown numbers, odd answers', () => {
  it('picks the piece whose number was asked for', () => {
    const result = ok(mapTrackResponse(fixture('multi-piece'), NUMBERS.multiPiece));
    expect(result.tracking_number).toBe(NUMBERS.multiPiece);
    expect(result.events.map((e) => e.event_key)).toEqual(['out_for_delivery', 'picked_up']);
    expect(result.expected_delivery).toEqual({ from: '2026-11-04', to: '2026-11-04' });
    const lead = ok(mapTrackResponse(fixture('multi-piece'), NUMBERS.multiPieceLead));
    expect(lead.events.map((e) => e.event_key)).toEqual(['delivered']);
  });

  it('the TW0001 warning is not found', () => {
    expect(mapTrackResponse(fixture('not-found'), NUMBERS.notFound)).toEqual({ status: 'not_found', tracking_number: NUMBERS.notFound });
  });

  it('a known number without activity yet: ok with no events', () => {
    expect(ok(mapTrackResponse(fixture('empty-events'), NUMBERS.emptyEvents)).events).toEqual([]);
  });

  it('a body that is not a Track API answer is a retryable error, never a throw', () => {
    for (const body of [null, 'text', 42, [], {}, { trackResponse: {} }, { trackResponse: { shipment: 'x' } }]) {
      const result = mapTrackResponse(body, NUMBERS.malformed);
      expect(result).toMatchObject({ status: 'error', retryable: true });
    }
  });

  it('survives wrong types everywhere inside a shipment', () => {
    const body = {
      trackResponse: {
        shipment: [
          {
            inquiryNumber: 7,
            package: [
              null,
              {
                trackingNumber: NUMBERS.delivered,
                activity: [
                  null,
                  3,
                  { status: 'x', date: 20261104 },
                  { date: '20261104', location: 'x', status: { statusCode: 11, type: 4 } },
                ],
                deliveryDate: [null, { type: 3 }, { type: 'SDD', date: 'tomorrow' }],
                deliveryTime: 'soon',
                deliveryInformation: { signature: 'x', deliveryPhoto: { photo: '%%%' }, receivedBy: 5 },
              },
            ],
          },
        ],
      },
    };
    const result = ok(mapTrackResponse(body, NUMBERS.delivered));
    expect(result.events).toHaveLength(1);
    expect(result.events[0]).toMatchObject({ time: '2026-11-04', event_key: null, location: null });
    expect(result.expected_delivery).toBeUndefined();
    expect(result.proof_of_delivery).toBeUndefined();
  });

  it('never throws on arbitrary JSON anywhere inside a shipment, package or activity', () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    const shaped = fc.oneof(
      json.map((value) => ({ trackResponse: { shipment: [value] } })),
      json.map((value) => ({ trackResponse: { shipment: [{ inquiryNumber: NUMBERS.delivered, package: [value] }] } })),
      fc
        .dictionary(fc.constantFrom('activity', 'deliveryDate', 'deliveryTime', 'deliveryInformation', 'trackingNumber'), json)
        .map((pkg) => ({
          trackResponse: { shipment: [{ package: [pkg] }] },
        })),
      fc.dictionary(fc.constantFrom('date', 'time', 'gmtOffset', 'gmtDate', 'gmtTime', 'location', 'status'), json).map((activity) => ({
        trackResponse: { shipment: [{ package: [{ activity: [activity] }] }] },
      })),
    );
    fc.assert(
      fc.property(shaped, (body) => {
        const result = mapTrackResponse(body, NUMBERS.delivered);
        if (result.status === 'ok')
          for (const event of result.events) expect(parseEventTime(event.time, { timezone: event.timezone }).ok).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
