import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CarrierEvent, ProofOfDelivery, TrackResult } from '../../../src/carriers/carrier.js';
import { readTrackingNumber } from '../../../src/carriers/detect/index.js';
import { FEDEX_CODES, FEDEX_UNMAPPED_CODES } from '../../../src/carriers/fdxglb/fdxglb.codes.js';
import { type FedexProofRequest, mapScanEvent, mapTrackingResponse, pickPiece } from '../../../src/carriers/fdxglb/fdxglb.mapper.js';
import type { FedexTrackResult } from '../../../src/carriers/fdxglb/fdxglb.payload.js';
import { signatureProofContent, signatureProofRequest } from '../../../src/carriers/fdxglb/fdxglb.pod.js';
import { expectedDeliveryOf } from '../../../src/carriers/fdxglb/fdxglb.times.js';
import { EVENTS, isEventKey } from '../../../src/carriers/phases.js';
import { oldestFirst } from '../../../src/carriers/sdk/http-carrier.js';
import { parseEventTime } from '../../../src/core/event-time.js';
import { fixture, NUMBERS } from './fdxglb.fixtures.js';

const proofs: FedexProofRequest[] = [];
const stubProof = (request: FedexProofRequest): ProofOfDelivery => {
  proofs.push(request);
  return {
    reference: `stub:${request.trackingNumber}`,
    file_name: 'stub.pdf',
    content_type: 'application/pdf',
    ...(request.signedBy ? { signed_by: request.signedBy } : {}),
    fetch: async () => ({ status: 'ok', content: Buffer.alloc(0) }),
  };
};

/** Maps a fixture for its numbers, each result's events oldest first (as the base class hands them on). */
function mapFixture(name: string, numbers = NUMBERS[name]): TrackResult[] {
  const results = mapTrackingResponse(fixture(name), numbers, { proofOfDelivery: stubProof });
  if (!results) throw new Error(`${name} did not map`);
  return results.map((result) => (result.status === 'ok' ? { ...result, events: oldestFirst(result.events) } : result));
}

function ok(result: TrackResult | undefined): Extract<TrackResult, { status: 'ok' }> {
  if (result?.status !== 'ok') throw new Error(`expected an ok result, got ${JSON.stringify(result)}`);
  return result;
}

const keys = (events: CarrierEvent[]) => events.map((event) => event.event_key);
const codes = (events: CarrierEvent[]) => events.map((event) => event.additional_info.carrier_code);
const utc = (event: CarrierEvent) => {
  const parsed = parseEventTime(event.time, { timezone: event.timezone });
  return parsed.ok ? parsed.time.utc : `unreadable ${event.time}`;
};

describe('fdxglb fixtures', () => {
  it('use synthetic 12-digit FedEx Express numbers whose check digit is valid', () => {
    const all = Object.values(NUMBERS).flat();
    for (const number of all) {
      expect(readTrackingNumber(number), number).toContainEqual(
        expect.objectContaining({ format: 'fedex_express_12', check_digit: 'valid' }),
      );
    }
  });
});

describe('fdxglb code table', () => {
  it('maps every key to a standard event key, composites refining codes the table also knows', () => {
    for (const [code, key] of Object.entries(FEDEX_CODES)) {
      expect(isEventKey(key), code).toBe(true);
      if (code.includes(':')) expect(Object.hasOwn(FEDEX_CODES, code.split(':')[0]), code).toBe(true);
    }
  });

  it('lists every documented status code, mapped or left out with a reason (never both)', () => {
    // The codes of FedEx's tracking status code list (see the header of fdxglb.codes.ts).
    const documented = (
      'AA AC AD AE AF AO AP AR AS AX CA CC CD CH CP DD DE DL DO DP DR DS DY EA ED EO EP FD HA HL HP IP IT IX LO OC OD OF OX ' +
      'PD PF PL PM PU PX RR RM RC RS RP LP RG RD SE SF SP'
    ).split(' ');
    for (const code of documented) {
      const mapped = Object.hasOwn(FEDEX_CODES, code);
      const left = Object.hasOwn(FEDEX_UNMAPPED_CODES, code);
      expect(mapped !== left, `${code}: mapped ${mapped}, left out ${left}`).toBe(true);
    }
    for (const code of Object.keys(FEDEX_UNMAPPED_CODES)) expect(documented).toContain(code);
  });
});

describe('fdxglb mapper: a delivered piece', () => {
  const [result] = mapFixture('delivered.json');
  const events = ok(result).events;

  it('maps the journey code by code, oldest first', () => {
    expect(codes(events)).toEqual(['OC', 'PU', 'AF', 'IT', 'DP', 'AR', 'OD', 'DL']);
    expect(keys(events)).toEqual([
      'label_created',
      'picked_up',
      'arrived_at_facility',
      'in_transit',
      'departed_facility',
      'arrived_at_facility',
      'out_for_delivery',
      'delivered',
    ]);
    expect(events.at(-1)).toMatchObject({ event: EVENTS.delivered.description, phase_key: 'delivered' });
    expect(events.at(-1)?.additional_info).toMatchObject({
      carrier_code: 'DL',
      carrier_description: 'Delivered',
      derived_status_code: 'DL',
    });
    expect(events[0].additional_info).toMatchObject({ carrier_code: 'OC', derived_status_code: 'IN', location_type: 'CUSTOMER' });
  });

  it('keeps the times with their offsets and places them by state', () => {
    const delivered = events.at(-1) as CarrierEvent;
    expect(delivered.time).toBe('2026-11-19T13:41:00-05:00');
    expect(delivered.timezone).toBe('America/New_York');
    expect(delivered.location).toMatchObject({
      place: 'Pine Ridge, GA, US',
      city: 'Pine Ridge',
      state_or_province: 'GA',
      postal_code: '30399',
      country_code: 'US',
      timezone: 'America/New_York',
    });
    expect(utc(delivered)).toBe('2026-11-19T18:41:00.000Z');
  });

  it('makes a place of a country alone, and none of an empty location', () => {
    const inTransit = events.find((event) => event.additional_info.carrier_code === 'IT');
    expect(inTransit?.location).toMatchObject({ place: 'United States of America', city: null, country_code: 'US' });
    expect(events[0].location).toBeNull();
    expect(events.find((e) => e.additional_info.carrier_code === 'OD')?.additional_info.location_id).toBe('PRGA');
  });

  it('offers the signature proof with who received it, and no estimate once delivered', () => {
    expect(ok(result).proof_of_delivery).toMatchObject({ signed_by: 'A.TESTER', content_type: 'application/pdf' });
    expect(proofs.find((p) => p.trackingNumber === '799900000021')).toEqual({
      trackingNumber: '799900000021',
      trackingNumberUniqueId: '12026~799900000021~FDXE',
      carrierCode: 'FDXE',
      signedBy: 'A.TESTER',
    });
    expect(ok(result).expected_delivery).toBeUndefined();
  });

  it('offers no proof when FedEx lists no signature proof for the piece', () => {
    const body = fixture<{ output: { completeTrackResults: Array<{ trackResults: FedexTrackResult[] }> } }>('delivered.json');
    body.output.completeTrackResults[0].trackResults[0].availableImages = [];
    const [withoutImage] = mapTrackingResponse(body, ['799900000021'], { proofOfDelivery: stubProof }) ?? [];
    expect(ok(withoutImage).proof_of_delivery).toBeUndefined();
  });
});

describe('fdxglb mapper: in transit', () => {
  const [result] = mapFixture('in-transit.json');
  const events = ok(result).events;

  it('maps the transit family; an unmapped code keeps FedEx text and no key', () => {
    expect(codes(events)).toEqual(['OC', 'PX', 'OF', 'LO', 'DP', 'EA', 'AA', 'PF', 'PL', 'SF', 'AE']);
    expect(keys(events)).toEqual([
      'label_created',
      'picked_up',
      'arrived_at_facility',
      'departed_facility',
      'departed_facility',
      'in_transit',
      'arrived_at_facility',
      'in_transit',
      'in_transit',
      'arrived_at_facility',
      null,
    ]);
    expect(events.at(-1)).toMatchObject({ event: 'Shipment arriving early', event_key: null, phase_key: null });
  });

  it('orders by instant across the DST change: 01:45-04:00 comes before 01:15-05:00', () => {
    const lo = events.find((event) => event.additional_info.carrier_code === 'LO') as CarrierEvent;
    const dp = events.find((event) => event.additional_info.carrier_code === 'DP') as CarrierEvent;
    expect([utc(lo), utc(dp)]).toEqual(['2026-11-01T05:45:00.000Z', '2026-11-01T06:15:00.000Z']);
    expect(events.indexOf(lo)).toBeLessThan(events.indexOf(dp));
  });

  it('reads the estimated window; its offset-less start borrows the end offset', () => {
    expect(ok(result).expected_delivery).toEqual({ from: '2026-11-26T09:00:00-05:00', to: '2026-11-26T13:00:00-05:00' });
    expect(ok(result).proof_of_delivery).toBeUndefined();
  });
});

describe('fdxglb mapper: customs and unusual places', () => {
  const [result] = mapFixture('customs.json');
  const events = ok(result).events;

  it('maps clearance codes; an exception code unknown to the table falls back to the event type', () => {
    expect(codes(events)).toEqual(['PU', 'AF', 'DP', 'AC', 'CP', 'CD:A67', 'CC']);
    expect(keys(events)).toEqual([
      'picked_up',
      'arrived_at_facility',
      'departed_facility',
      'arrived_at_facility',
      'in_customs',
      'in_customs',
      'customs_cleared',
    ]);
    const delay = events[5];
    expect(delay.additional_info).toMatchObject({
      carrier_code: 'CD:A67',
      carrier_description: 'Clearance delay: Awaiting information from the importer',
      exception_code: 'A67',
      derived_status_code: 'DY',
    });
  });

  it('places a location id alone, a country alone, and a Hong Kong scan with its zone', () => {
    expect(events[3].location).toMatchObject({ place: 'YXXA', city: null, country_code: null });
    expect(events[3].additional_info.location_id).toBe('YXXA');
    expect(events[1].location).toMatchObject({ place: "People's Republic of China", country_code: 'CN' });
    expect(events[0]).toMatchObject({ time: '2026-11-20T09:45:00+08:00', timezone: 'Asia/Hong_Kong' });
    expect(events[0].location?.place).toBe('Harbour Point, HK');
  });

  it('reads an ESTIMATED_DELIVERY midnight as the date it stands for', () => {
    expect(ok(result).expected_delivery).toEqual({ from: '2026-11-25', to: '2026-11-25' });
  });
});

describe('fdxglb mapper: exceptions, returns and cancellations', () => {
  const results = mapFixture('exceptions.json');
  const byNumber = new Map(results.map((result) => [result.tracking_number, ok(result).events]));

  it('refines delivery exceptions by their code: refused, then returned to the shipper', () => {
    const events = byNumber.get('799900000124') as CarrierEvent[];
    expect(codes(events)).toEqual(['PU', 'DE:07', 'RS']);
    expect(keys(events)).toEqual(['picked_up', 'refused_by_recipient', 'returning_to_sender']);
    expect(events[1].additional_info.carrier_description).toBe('Delivery exception: Delivery was refused by the recipient');
  });

  it('a recipient not in is a failed attempt; the parcel then waits at a FedEx location', () => {
    const events = byNumber.get('799900000135') as CarrierEvent[];
    expect(codes(events)).toEqual(['OD', 'DE:08', 'HP']);
    expect(keys(events)).toEqual(['out_for_delivery', 'delivery_attempt_failed', 'available_for_pickup']);
  });

  it('a pickup delay before a cancellation', () => {
    expect(keys(byNumber.get('799900000146') as CarrierEvent[])).toEqual(['label_created', 'pickup_failed', 'cancelled']);
  });

  it('delays, a shipment exception, a wrong address and a changed delivery date', () => {
    const events = byNumber.get('799900000168') as CarrierEvent[];
    expect(codes(events)).toEqual(['ED', 'SE:099', 'DY', 'DD', 'DE:03', 'DE:17']);
    expect(keys(events)).toEqual(['out_for_delivery', 'delayed', 'delayed', 'delayed', 'address_issue', 'rescheduled']);
    expect(events[1].additional_info.carrier_description).toBe('Shipment exception: Unable to deliver');
  });
});

describe('fdxglb mapper: times without offset', () => {
  const events = ok(mapFixture('times-without-offset.json')[0]).events;

  it('keeps the local text and places it by state or country; a split state (TX) gets no zone', () => {
    expect(events.map((event) => [event.time, event.timezone])).toEqual([
      ['2026-10-31T18:00:00', 'America/Los_Angeles'],
      ['2026-11-01T01:10:00', 'America/New_York'],
      ['2026-11-01T01:30:00', 'America/New_York'],
      ['2026-11-01T09:00:00', null],
      ['2026-11-01T14:00:00', 'Europe/London'],
    ]);
  });

  it('reads a time in the repeated hour of the DST change as its first occurrence', () => {
    expect(events.map(utc)).toEqual([
      '2026-11-01T01:00:00.000Z',
      '2026-11-01T05:10:00.000Z',
      '2026-11-01T05:30:00.000Z',
      '2026-11-01T09:00:00.000Z',
      '2026-11-01T14:00:00.000Z',
    ]);
  });
});

describe('fdxglb mapper: several pieces and reused numbers', () => {
  const [master, reused] = mapFixture('multi-piece.json');

  it('picks the piece whose number was asked, not the first one listed', () => {
    expect(keys(ok(master).events)).toEqual(['picked_up', 'out_for_delivery']);
    expect(ok(master).proof_of_delivery).toBeUndefined();
  });

  it('of duplicates of a reused number, picks the one scanned most recently', () => {
    expect(ok(reused).events.map((event) => event.time)).toEqual(['2026-11-20T15:00:00-06:00', '2026-11-21T03:00:00-06:00']);
  });

  it('falls back to the pieces FedEx lists when none carries the number, preferring one without error', () => {
    const pieces: FedexTrackResult[] = [
      { trackingNumberInfo: { trackingNumber: '1' }, error: { code: 'X' } },
      { trackingNumberInfo: { trackingNumber: '2' }, scanEvents: [] },
    ];
    expect(pickPiece(pieces, '799900000010')).toBe(pieces[1]);
    expect(pickPiece([], '799900000010')).toBeNull();
  });
});

describe('fdxglb mapper: not found, partial batches, empty and malformed answers', () => {
  it('not found inside a 200 is not_found', () => {
    expect(mapFixture('not-found.json')).toEqual([{ status: 'not_found', tracking_number: '799900000227' }]);
  });

  it('a partial batch answers each number on its own; a number missing from the answer is left out', () => {
    const results = mapTrackingResponse(fixture('partial-batch.json'), ['799900000238', '799900000249', '799900000250', '799900000271']);
    expect(results?.map((result) => [result.tracking_number, result.status])).toEqual([
      ['799900000238', 'ok'],
      ['799900000249', 'not_found'],
      ['799900000250', 'error'],
    ]);
    expect(results?.[2]).toMatchObject({ retryable: false, message: expect.stringContaining('TRACKING.TRACKINGNUMBER.INVALID') });
  });

  it('another per-number error is retryable', () => {
    const body = {
      output: { completeTrackResults: [{ trackingNumber: '799900000010', trackResults: [{ error: { code: 'SYSTEM.UNAVAILABLE' } }] }] },
    };
    expect(mapTrackingResponse(body, ['799900000010'])?.[0]).toMatchObject({ status: 'error', retryable: true });
  });

  it('a label without scans is ok with no events and its estimated date', () => {
    expect(mapFixture('empty-events.json')).toEqual([
      { status: 'ok', tracking_number: '799900000282', events: [], expected_delivery: { from: '2026-11-30', to: '2026-11-30' } },
    ]);
  });

  it('a body that is not a tracking answer maps to null', () => {
    expect(mapTrackingResponse(fixture('malformed.json'), ['799900000293'])).toBeNull();
    for (const body of [null, 'text', 42, [], {}, { output: null }, { output: { completeTrackResults: {} } }]) {
      expect(mapTrackingResponse(body, ['799900000293'])).toBeNull();
    }
  });

  it('scans with unreadable dates or odd types are left out, never thrown on', () => {
    for (const scan of [{}, { date: 'yesterday' }, { date: 42 }, { date: '2026-13-40T10:00:00' }, null, 'scan']) {
      expect(mapScanEvent(scan as never)).toBeNull();
    }
    const odd = mapScanEvent({ date: '2026-11-20T10:00:00Z', eventType: 7, scanLocation: 'here' as never, exceptionCode: {} });
    expect(odd).toMatchObject({ event_key: null, additional_info: { carrier_code: 'unknown' }, location: null });
  });
});

describe('fdxglb mapper: scan-shaped arbitrary input', () => {
  it('maps any scan-like record to null or to an event whose time parses and whose key matches its phase', () => {
    const isoDate = fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2040-01-01T00:00:00Z'), noInvalidDate: true })
      .chain((date) =>
        fc.constantFrom(
          date.toISOString(),
          date.toISOString().slice(0, 19),
          `${date.toISOString().slice(0, 19)}-05:00`,
          date.toISOString().slice(0, 10),
        ),
      );
    const code = fc.oneof(
      fc.constantFrom(...Object.keys(FEDEX_CODES), ...Object.keys(FEDEX_UNMAPPED_CODES), ''),
      fc.string(),
      fc.integer(),
    );
    const place = fc.oneof(
      fc.record(
        {
          city: fc.oneof(fc.string(), fc.constant('PINE RIDGE')),
          stateOrProvinceCode: fc.oneof(fc.constantFrom('GA', 'TX', 'ON'), fc.string()),
          countryCode: fc.oneof(fc.constantFrom('US', 'GB', 'CA', 'XX'), fc.string()),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue(),
    );
    const scan = fc.record(
      {
        date: fc.oneof(isoDate, fc.string(), fc.jsonValue()),
        eventType: code,
        exceptionCode: code,
        derivedStatusCode: code,
        eventDescription: fc.oneof(fc.string(), fc.jsonValue()),
        scanLocation: place,
        locationId: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(scan, (input) => {
        const event = mapScanEvent(input as never);
        if (event === null) return;
        expect(parseEventTime(event.time, { timezone: event.timezone }).ok).toBe(true);
        expect(event.additional_info.carrier_code.length).toBeGreaterThan(0);
        expect(event.event.length).toBeGreaterThan(0);
        if (event.event_key) expect(event.phase_key).toBe(EVENTS[event.event_key].phase);
      }),
      { numRuns: 500 },
    );
  });
});

describe('fdxglb expected delivery', () => {
  it('drops a window that ends before it starts, and falls back to the standard transit window', () => {
    expect(
      expectedDeliveryOf({ estimatedDeliveryTimeWindow: { window: { begins: '2026-11-27T10:00:00Z', ends: '2026-11-26T10:00:00Z' } } }),
    ).toBeUndefined();
    expect(expectedDeliveryOf({ standardTransitTimeWindow: { window: { ends: '2026-11-27T00:00:00-05:00' } } })).toEqual({
      from: '2026-11-27T00:00:00-05:00',
      to: '2026-11-27T00:00:00-05:00',
    });
    expect(expectedDeliveryOf({ dateAndTimes: [{ type: 'ESTIMATED_DELIVERY', dateTime: '2026-11-27' }] })).toEqual({
      from: '2026-11-27',
      to: '2026-11-27',
    });
  });
});

describe('fdxglb signature proof', () => {
  it('asks for the PDF letter of the piece, with its unique id when known', () => {
    expect(
      signatureProofRequest({ trackingNumber: '799900000021', trackingNumberUniqueId: 'u1', carrierCode: 'FDXE', signedBy: null }),
    ).toEqual({
      trackDocumentDetail: { documentType: 'SIGNATURE_PROOF_OF_DELIVERY', documentFormat: 'PDF' },
      trackDocumentSpecification: [
        { trackingNumberInfo: { trackingNumber: '799900000021', trackingNumberUniqueId: 'u1', carrierCode: 'FDXE' } },
      ],
    });
  });

  it('decodes the base64 document, and fails as data without one', () => {
    const decoded = signatureProofContent(fixture('signature-proof.json'));
    expect(decoded.status).toBe('ok');
    if (decoded.status === 'ok') expect(decoded.content.subarray(0, 5).toString()).toBe('%PDF-');
    for (const body of [{}, { output: { document: [] } }, { output: { document: ['%%%'] } }, null]) {
      expect(signatureProofContent(body)).toMatchObject({ status: 'error', retryable: true });
    }
  });
});
