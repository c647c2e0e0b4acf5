import { describe, expect, it } from 'vitest';
import { mapCertificateBody } from '../../../src/carriers/canpos/canpos.certificate.js';
import { CANPOS_CODES, codeKey } from '../../../src/carriers/canpos/canpos.codes.js';
import { mapDetailBody, mapExpectedDelivery, scanPlace } from '../../../src/carriers/canpos/canpos.mapper.js';
import { parseCanposXml } from '../../../src/carriers/canpos/canpos.payload.js';
import type { CarrierEvent, ProofOfDelivery, TrackResult } from '../../../src/carriers/carrier.js';
import { isEventKey } from '../../../src/carriers/phases.js';
import { parseEventTime } from '../../../src/core/event-time.js';
import { canposFixture, canposXml } from './fixtures.js';

function map(name: string, number: string, options: Parameters<typeof mapDetailBody>[2] = {}): TrackResult {
  return mapDetailBody(number, canposFixture(name), options);
}

function eventsOf(result: TrackResult): CarrierEvent[] {
  if (result.status !== 'ok') throw new Error(`expected ok, got ${result.status}`);
  return result.events;
}

const keys = (result: TrackResult) => eventsOf(result).map((e) => [e.additional_info.carrier_code, e.event_key]);

const stubProof = (pin: string): ProofOfDelivery => ({
  reference: `certificate:${pin}`,
  file_name: `${pin}-delivery-confirmation.pdf`,
  content_type: 'application/pdf',
  fetch: async () => ({ status: 'ok', content: Buffer.alloc(0) }),
});

describe('Canada Post code table', () => {
  it('maps every code to a known event key, keyed without leading zeros', () => {
    for (const [code, key] of Object.entries(CANPOS_CODES)) {
      expect(isEventKey(key), `${code} → ${key}`).toBe(true);
      expect(code).toMatch(/^[1-9]\d*$/);
    }
  });

  it('looks identifiers up without their leading zeros', () => {
    expect(codeKey('0174')).toBe('174');
    expect(codeKey('1496')).toBe('1496');
    expect(codeKey('0')).toBe('0');
    expect(codeKey('17A')).toBeNull();
    expect(codeKey(null)).toBeNull();
    expect(CANPOS_CODES[codeKey('0174') as string]).toBe('out_for_delivery');
  });

  it('maps the codes of Canada Post’s own sample answer', () => {
    expect(CANPOS_CODES['100']).toBe('in_transit');
    expect(CANPOS_CODES['173']).toBe('address_issue');
    expect(CANPOS_CODES['174']).toBe('out_for_delivery');
    expect(CANPOS_CODES['1496']).toBe('delivered');
    expect(CANPOS_CODES['20']).toBe('delivered');
    expect(CANPOS_CODES['500']).toBe('out_for_delivery');
    expect(CANPOS_CODES['2300']).toBe('picked_up');
    expect(CANPOS_CODES['3000']).toBe('info_received');
  });
});

describe('Canada Post mapper: tracking details', () => {
  it('maps a delivered parcel oldest first, with offsets from the zone abbreviation, the changed date and the signatory', () => {
    const result = map('delivered', '7023000000000017', { proofOfDelivery: stubProof });
    expect(keys(result)).toEqual([
      ['3000', 'info_received'],
      ['1301', 'picked_up'],
      ['0100', 'in_transit'],
      ['0100', 'in_transit'],
      ['0174', 'out_for_delivery'],
      ['1496', 'delivered'],
      ['20', 'delivered'],
    ]);
    const events = eventsOf(result);
    expect(events[0]).toMatchObject({ time: '2026-02-02T10:30:00-05:00', timezone: null, location: null });
    expect(events[1].location).toMatchObject({
      place: 'Montreal, CA',
      line1: 'SAMPLE POST OFFICE',
      location_type: 'post_office',
      city: 'Montreal',
      state_or_province: 'QC',
      country_code: 'CA',
    });
    expect(events[1].additional_info).toMatchObject({ retail_location_id: '0000000', event_time_zone: 'EST' });
    expect(events[5]).toMatchObject({
      event: 'Delivered',
      phase_key: 'delivered',
      time: '2026-02-04T11:02:10-05:00',
      additional_info: { carrier_code: '1496', carrier_description: 'Item successfully delivered' },
    });
    expect(events[6].additional_info.signatory_name).toBe('A TESTER');
    expect(result.status === 'ok' && result.expected_delivery).toEqual({ from: '2026-02-04', to: '2026-02-04' });
    expect(result.status === 'ok' && result.proof_of_delivery).toMatchObject({
      reference: 'certificate:7023000000000017',
      content_type: 'application/pdf',
      signed_by: 'A TESTER',
    });
  });

  it('maps a parcel waiting at a post office as available for pickup, with the office', () => {
    const result = map('pickup-post-office', '7023000000000048', { proofOfDelivery: stubProof });
    expect(keys(result)).toEqual([
      ['0174', 'out_for_delivery'],
      ['1479', 'delivery_attempt_failed'],
      ['1701', 'available_for_pickup'],
    ]);
    const waiting = eventsOf(result)[2];
    expect(waiting.phase_key).toBe('available_for_pickup');
    expect(waiting.location).toMatchObject({
      line1: 'SAMPLE STREET POST OFFICE',
      location_type: 'post_office',
      city: 'Halifax',
      state_or_province: 'NS',
      full: 'SAMPLE STREET POST OFFICE, Halifax, NS, Canada',
    });
    expect(waiting.additional_info.retail_location_id).toBe('0000123');
    expect(result.status === 'ok' && result.proof_of_delivery).toBeUndefined();
  });

  it('maps a parcel left in a parcel locker as waiting there, then collected', () => {
    expect(keys(map('locker', '7023000000000116'))).toEqual([
      ['1405', 'available_for_pickup'],
      ['1406', 'collected_by_recipient'],
    ]);
    expect(eventsOf(map('locker', '7023000000000116'))[0].location?.line1).toBe('SAMPLE PARCEL LOCKER');
  });

  it('maps transit scans, giving a time without zone its province’s timezone', () => {
    const result = map('in-transit', '7023000000000024');
    expect(keys(result)).toEqual([
      ['2300', 'picked_up'],
      ['0175', 'in_transit'],
      ['0400', 'arrived_at_facility'],
      ['0410', 'departed_facility'],
    ]);
    const [pickedUp, , arrived] = eventsOf(result);
    expect(pickedUp).toMatchObject({ time: '2026-07-07T14:20:00-04:00', timezone: null });
    expect(arrived).toMatchObject({ time: '2026-07-08T01:45:00', timezone: 'America/Edmonton' });
    const parsed = parseEventTime(arrived.time, { timezone: arrived.timezone });
    expect(parsed.ok && parsed.time.utc).toBe('2026-07-08T07:45:00.000Z');
  });

  it('places local times across the change to daylight time by the province’s timezone', () => {
    const events = eventsOf(map('dst', '7023000000000109'));
    const utc = events.map((e) => {
      const parsed = parseEventTime(e.time, { timezone: e.timezone });
      return parsed.ok ? parsed.time.utc : null;
    });
    // 01:30 AST is 05:30 UTC; at 02:00 Halifax moves to ADT, so 03:30 is 06:30 UTC.
    expect(utc).toEqual(['2026-03-08T05:30:00.000Z', '2026-03-08T06:30:00.000Z']);
  });

  it('maps international scans with the country from the site and its timezone', () => {
    const result = map('international', '7023000000000062');
    expect(keys(result)).toEqual([
      ['0100', 'in_transit'],
      ['4310', 'in_transit'],
      ['4330', 'in_customs'],
      ['4500', 'customs_cleared'],
      ['4600', 'arrived_at_facility'],
    ]);
    const events = eventsOf(result);
    expect(events[1]).toMatchObject({ timezone: 'Europe/Paris', time: '2026-06-16T06:40:00' });
    expect(events[1].location).toMatchObject({ place: 'France', country_code: 'FR', city: null });
    expect(events[4].location).toMatchObject({ country_code: 'FR', postal_code: '75008' });
    expect(events[4].additional_info.event_time_zone).toBe('FRANCE');
    expect(result.status === 'ok' && result.expected_delivery).toBeUndefined();
  });

  it('maps delays, a rescheduled delivery and an addressing error', () => {
    expect(keys(map('exceptions', '7023000000000079'))).toEqual([
      ['0173', 'address_issue'],
      ['161', 'delayed'],
      ['1414', 'rescheduled'],
    ]);
    expect(eventsOf(map('exceptions', '7023000000000079'))[0].time).toBe('2026-01-14T06:19:57-06:00');
  });

  it('maps a parcel sent back: the return, then its delivery to the sender', () => {
    expect(keys(map('returned', '7023000000000055'))).toEqual([
      ['0174', 'out_for_delivery'],
      ['1417', 'returning_to_sender'],
      ['2600', 'returning_to_sender'],
      ['1496', 'delivered'],
    ]);
  });

  it('keeps Canada Post’s text for codes the table lacks', () => {
    const events = eventsOf(map('unmapped', '7023000000000086'));
    expect(events.map((e) => [e.additional_info.carrier_code, e.event_key, e.event])).toEqual([
      ['0100', 'in_transit', 'In transit'],
      ['1220', null, 'Delivery preference - Front door'],
      ['9999', null, 'A scan Canada Post has not documented here'],
    ]);
    expect(events[1].location).toBeNull();
  });

  it('an answer without scans is found with no events; its expected date still counts', () => {
    const result = map('empty-events', '7023000000000093');
    expect(result).toMatchObject({ status: 'ok', events: [], expected_delivery: { from: '2026-10-01', to: '2026-10-01' } });
  });

  it('"No PIN History" is not found; other messages are errors not retried', () => {
    expect(map('not-found', '7023000000009997')).toEqual({ status: 'not_found', tracking_number: '7023000000009997' });
    expect(map('duplicate', '7023000000000123')).toMatchObject({
      status: 'error',
      retryable: false,
      message: expect.stringContaining('002'),
    });
  });

  it('a body that is no XML, or XML of something else, is a retryable error', () => {
    expect(parseCanposXml(canposXml('malformed'))).toBeNull();
    expect(parseCanposXml('<html><body>maintenance</html>')).toBeNull();
    expect(parseCanposXml('{"json": true}')).toBeNull();
    expect(map('malformed', '7023000000000123')).toMatchObject({ status: 'error', retryable: true });
    expect(mapDetailBody('7023000000000123', parseCanposXml('<other>1</other>'))).toMatchObject({ status: 'error', retryable: true });
  });

  it('skips scans whose date or time cannot be read', () => {
    const body = parseCanposXml(
      `<tracking-detail><significant-events>
        <occurrence><event-identifier>0100</event-identifier><event-date>2026-02-30</event-date><event-time>10:00:00</event-time></occurrence>
        <occurrence><event-identifier>0100</event-identifier><event-date>2026-02-03</event-date><event-time>25:00:00</event-time></occurrence>
        <occurrence><event-date>2026-02-03</event-date><event-time>10:00:00</event-time></occurrence>
        <occurrence><event-identifier>0174</event-identifier><event-date>2026-02-03</event-date><event-time>10:00:00</event-time><event-time-zone>XYZ</event-time-zone></occurrence>
      </significant-events></tracking-detail>`,
    );
    expect(keys(mapDetailBody('7023000000000017', body))).toEqual([['0174', 'out_for_delivery']]);
  });

  it('reads one scan, and one message, as lists of one', () => {
    const body = parseCanposXml(canposXml('out-for-delivery'));
    expect(keys(mapDetailBody('7023000000000031', body))).toEqual([
      ['0100', 'in_transit'],
      ['0500', 'out_for_delivery'],
    ]);
  });

  it('expected delivery: the changed date first, empty dates ignored', () => {
    expect(mapExpectedDelivery({ 'expected-delivery-date': '2026-02-05', 'changed-expected-date': '2026-02-07' })).toEqual({
      from: '2026-02-07',
      to: '2026-02-07',
    });
    expect(mapExpectedDelivery({ 'expected-delivery-date': '2026-02-05', 'changed-expected-date': '' })).toEqual({
      from: '2026-02-05',
      to: '2026-02-05',
    });
    expect(mapExpectedDelivery({ 'expected-delivery-date': 'soon' })).toBeUndefined();
  });

  it('places: a city alone, an office code with a country, nothing at all', () => {
    expect(scanPlace({ 'event-site': 'SAINTE-FOY', 'event-province': 'QC' })).toMatchObject({ place: 'Sainte-Foy, CA' });
    expect(scanPlace({ 'event-site': 'ILTLVA,Israel' })).toMatchObject({ place: 'Israel', country_code: 'IL' });
    expect(scanPlace({ 'event-site': 'Lyon,France' })).toMatchObject({ place: 'Lyon, FR', country_code: 'FR' });
    expect(scanPlace({ 'event-site': 'SOMEWHERE' })).toMatchObject({ place: 'Somewhere', country_code: null });
    expect(scanPlace({})).toBeNull();
  });
});

describe('Canada Post mapper: delivery confirmation certificate', () => {
  it('reads the PDF from its base64 text', () => {
    const certificate = mapCertificateBody(canposFixture('certificate'));
    expect(certificate.status).toBe('ok');
    expect(certificate.status === 'ok' && certificate.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('no certificate, text that is not base64, or bytes that are no PDF: not retried', () => {
    expect(mapCertificateBody(canposFixture('certificate-missing'))).toMatchObject({
      status: 'error',
      retryable: false,
      message: expect.stringContaining('007'),
    });
    const notBase64 = parseCanposXml('<delivery-confirmation-certificate><image>not base64!</image></delivery-confirmation-certificate>');
    expect(mapCertificateBody(notBase64)).toMatchObject({ status: 'error', retryable: false });
    const notPdf = parseCanposXml(
      `<delivery-confirmation-certificate><image>${Buffer.from('GIF89a').toString('base64')}</image></delivery-confirmation-certificate>`,
    );
    expect(mapCertificateBody(notPdf)).toMatchObject({ status: 'error', retryable: false, message: expect.stringContaining('PDF') });
  });
});
