import { describe, expect, it } from 'vitest';
import type { CarrierEvent, TrackResult } from '../../../src/carriers/carrier.js';
import { DPDEUR_CODES } from '../../../src/carriers/dpdeur/dpdeur.codes.js';
import { dpdPlace, dpdTime, mapExpectedDelivery, mapTrackingAnswer } from '../../../src/carriers/dpdeur/dpdeur.mapper.js';
import { parseDpdXml } from '../../../src/carriers/dpdeur/dpdeur.payload.js';
import { faultOf, isRefusal, loginEnvelope, trackingEnvelope } from '../../../src/carriers/dpdeur/dpdeur.soap.js';
import { isEventKey } from '../../../src/carriers/phases.js';
import { oldestFirst } from '../../../src/carriers/sdk/http-carrier.js';
import { checkResult } from '../contract.js';
import { dpdFixture } from './fixtures.js';

const map = (name: string, timezone?: string) => mapTrackingAnswer('09980000000011', dpdFixture(name), { timezone });

function eventsOf(result: TrackResult): CarrierEvent[] {
  if (result.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return oldestFirst(result.events);
}

const summary = (result: TrackResult) =>
  eventsOf(result).map((e) => [e.additional_info.carrier_code, e.event_key, e.time, e.timezone, e.location?.place ?? null]);

describe('DPD mapper: DPD Germany’s life-cycle steps', () => {
  it('maps the five steps of a delivered parcel, in Berlin time, with their places', () => {
    const result = map('de-delivered');
    checkResult({ ...result, ...(result.status === 'ok' ? { events: eventsOf(result) } : {}) } as TrackResult);
    expect(summary(result)).toEqual([
      ['ACCEPTED', 'picked_up', '2026-11-17T16:40:00', 'Europe/Berlin', 'Testhausen, DE'],
      ['AT_SENDING_DEPOT', 'in_transit', '2026-11-17T21:05:00', 'Europe/Berlin', 'Depot 0998 Musterstadt, DE'],
      ['ON_THE_ROAD', 'in_transit', '2026-11-18T04:30:00', 'Europe/Berlin', 'Beispielburg, DE'],
      ['AT_DELIVERY_DEPOT', 'out_for_delivery', '2026-11-18T07:55:00', 'Europe/Berlin', 'Beispielburg, DE'],
      ['DELIVERED', 'delivered', '2026-11-18T11:02:00', 'Europe/Berlin', 'Beispielburg, DE'],
    ]);
    const delivered = eventsOf(result)[4];
    expect(delivered).toMatchObject({
      event: 'Delivered',
      phase_key: 'delivered',
      location: { city: 'Beispielburg', country_code: 'DE', country: 'Germany' },
      additional_info: {
        carrier_code: 'DELIVERED',
        carrier_description: 'Delivered: The parcel was delivered.',
        location_text: 'Beispielburg (DE)',
      },
    });
    expect(result.status === 'ok' && result.expected_delivery).toBeUndefined();
    expect(result.status === 'ok' && result.proof_of_delivery).toBeUndefined();
  });

  it('leaves out the steps not reached yet, and reads the Predict window with Berlin’s offset', () => {
    const result = map('de-in-transit');
    expect(summary(result)).toEqual([
      ['ACCEPTED', 'picked_up', '2026-11-18T15:20:00', 'Europe/Berlin', 'Testhausen, DE'],
      ['AT_SENDING_DEPOT', 'in_transit', '2026-11-18T20:45:00', 'Europe/Berlin', 'Depot 0998 Musterstadt, DE'],
      ['ON_THE_ROAD', 'in_transit', '2026-11-19T02:10:00', 'Europe/Berlin', 'Hub Nordwest'],
    ]);
    expect(eventsOf(result)[2].location).toMatchObject({ place: 'Hub Nordwest', line1: 'Hub Nordwest', country_code: null });
    expect(result.status === 'ok' && result.expected_delivery).toEqual({
      from: '2026-11-19T10:15:00+01:00',
      to: '2026-11-19T11:15:00+01:00',
    });
  });

  it('places times around the spring clock change, keeps DPD’s notes, and gives the window summer time', () => {
    const result = map('de-out-for-delivery');
    const events = eventsOf(result);
    expect(events.map((e) => [e.event_key, e.time])).toEqual([
      ['picked_up', '2026-03-28T18:00:00'],
      ['in_transit', '2026-03-29T01:30:00'],
      ['in_transit', '2026-03-29T03:30:00'],
      ['out_for_delivery', '2026-03-30T07:40:00'],
    ]);
    expect(events[3].additional_info.important_items).toEqual(['Note', 'Delivery today within the announced window.']);
    expect(result.status === 'ok' && result.expected_delivery).toEqual({
      from: '2026-03-30T12:00:00+02:00',
      to: '2026-03-30T13:00:00+02:00',
    });
  });

  it('a parcel announced but not handed over yet is found, without events', () => {
    expect(map('de-announced')).toEqual({ status: 'ok', tracking_number: '09980000000011', events: [] });
  });
});

describe('DPD mapper: DPD Netherlands’ and Belgium’s scans', () => {
  it('reads the scans newest first with AM/PM times (midnight as 00:20)', () => {
    expect(summary(map('nl-delivered', 'Europe/Amsterdam'))).toEqual([
      ['PickedUp', 'picked_up', '2026-11-17T17:12:00', 'Europe/Amsterdam', 'Voorbeeldrecht, NL'],
      ['BetweenDepots', 'in_transit', '2026-11-18T00:20:00', 'Europe/Amsterdam', 'Hub Noord, NL'],
      ['Depot', 'arrived_at_facility', '2026-11-18T05:47:03', 'Europe/Amsterdam', 'Zandstad, NL'],
      ['Courier', 'out_for_delivery', '2026-11-18T08:02:40', 'Europe/Amsterdam', 'Zandstad, NL'],
      ['Delivered', 'delivered', '2026-11-18T13:05:12', 'Europe/Amsterdam', 'Zandstad, NL'],
    ]);
  });

  it('a stay at a Pickup parcel shop is available_for_pickup at the shop, and the delivery after it a collection there', () => {
    const events = eventsOf(map('nl-parcel-shop', 'Europe/Amsterdam'));
    expect(events.map((e) => [e.additional_info.carrier_code, e.event_key])).toEqual([
      ['PickedUp', 'picked_up'],
      ['Depot', 'arrived_at_facility'],
      ['Courier', 'out_for_delivery'],
      ['DeliveryFailure', 'delivery_attempt_failed'],
      ['ReturningFromDelivery', 'delivery_attempt_failed'],
      ['ParcelShop', 'available_for_pickup'],
      ['Delivered', 'collected_by_recipient'],
    ]);
    const shop = {
      place: 'Kiosk De Hoek, Zandstad',
      line1: 'Kiosk De Hoek, Zandstad',
      city: null,
      country_code: 'NL',
      location_type: 'pickup_point',
    };
    expect(events[5]).toMatchObject({ phase_key: 'available_for_pickup', location: shop });
    expect(events[6]).toMatchObject({ phase_key: 'delivered', event: 'Collected by the recipient', location: shop });
    expect(events[6].additional_info.carrier_code).toBe('Delivered');
  });

  it('customs, holds and new deliveries; scans abroad in the zone of their country', () => {
    expect(summary(map('be-exceptions', 'Europe/Brussels'))).toEqual([
      ['PickedUp', 'picked_up', '2026-11-21T14:00:00', 'Europe/London', 'Northbrook, GB'],
      ['BetweenDepots', 'in_transit', '2026-11-21T19:00:00', 'Europe/London', 'Northbrook, GB'],
      ['Customs', 'in_customs', '2026-11-22T11:00:00', 'Europe/London', 'Northbrook, GB'],
      ['Warehouse', 'rescheduled', '2026-11-23T16:00:00', 'Europe/Brussels', 'Havenstede, BE'],
      ['Consolidation', 'rescheduled', '2026-11-24T09:00:00', 'Europe/Brussels', 'Havenstede, BE'],
    ]);
  });

  it('keeps an unknown status with DPD’s text and no key; drops statuses without a readable date', () => {
    const counted: string[] = [];
    const result = mapTrackingAnswer('09980000000016', dpdFixture('unmapped'), {
      timezone: 'Europe/Amsterdam',
      code: (codes) => {
        const known = codes.find((c) => c && Object.hasOwn(DPDEUR_CODES, c));
        if (!known) counted.push(String(codes.filter(Boolean)[0]));
        return known ? DPDEUR_CODES[known] : null;
      },
    });
    const events = eventsOf(result);
    expect(events.map((e) => [e.additional_info.carrier_code, e.event_key])).toEqual([
      ['BetweenDepots', 'in_transit'],
      ['Reconsigned', null],
    ]);
    expect(events[1]).toMatchObject({ event: 'Something new: A status this adapter does not know.', phase_key: null });
    expect(counted).toEqual(['Reconsigned']);
  });
});

describe('DPD mapper: answers without a parcel', () => {
  it('an empty tracking result is not found', () => {
    expect(map('not-found')).toEqual({ status: 'not_found', tracking_number: '09980000000011' });
  });

  it('a client fault is a refusal that is not retried; a server fault may pass', () => {
    expect(map('fault-client')).toMatchObject({
      status: 'error',
      retryable: false,
      message: expect.stringContaining('EXAMPLE_INVALID_PARCEL'),
    });
    expect(map('fault-server')).toMatchObject({ status: 'error', retryable: true, message: expect.stringContaining('Temporary problem') });
  });

  it('a body that is not a tracking answer is a retryable error', () => {
    expect(map('malformed')).toMatchObject({ status: 'error', retryable: true });
    expect(map('login')).toMatchObject({ status: 'error', retryable: true });
    expect(mapTrackingAnswer('X', null)).toMatchObject({ status: 'error', retryable: true });
    expect(mapTrackingAnswer('X', { Envelope: { Body: 'text' } })).toMatchObject({ status: 'error', retryable: true });
  });

  it('never throws on odd but well-formed XML', () => {
    const odd = [
      '<Envelope><Body><getTrackingDataResponse><trackingresult><statusInfo/><statusInfo>text</statusInfo></trackingresult></getTrackingDataResponse></Body></Envelope>',
      '<Envelope><Body><getTrackingDataResponse><trackingresult><statusInfo><status>DELIVERED</status><date><content>x</content></date></statusInfo></trackingresult></getTrackingDataResponse></Body></Envelope>',
      '<Envelope><Body><getTrackingDataResponse><trackingResult><shipmentInfo><predictInformation><content>1.1.2026 25:99</content></predictInformation></shipmentInfo></trackingResult></getTrackingDataResponse></Body></Envelope>',
      '<Envelope><Body><Fault/></Body></Envelope>',
    ];
    for (const text of odd) expect(() => mapTrackingAnswer('X', parseDpdXml(text))).not.toThrow();
  });
});

describe('DPD mapper: times, places and Predict texts', () => {
  it('reads the date forms DPD answers in', () => {
    expect(dpdTime('18.11.2026 14:05')).toBe('2026-11-18T14:05:00');
    expect(dpdTime('18.11.2026, 14:05:09')).toBe('2026-11-18T14:05:09');
    expect(dpdTime('18/11/2026, 14:05')).toBe('2026-11-18T14:05:00');
    expect(dpdTime('11/18/2026 2:05:00 PM')).toBe('2026-11-18T14:05:00');
    expect(dpdTime('11/18/2026 12:05:00 AM')).toBe('2026-11-18T00:05:00');
    expect(dpdTime('11/18/2026 12:05:00 PM')).toBe('2026-11-18T12:05:00');
    expect(dpdTime({ content: ['2026-11-18 14:05:00'] })).toBe('2026-11-18T14:05:00');
    expect(dpdTime('18.11.2026')).toBe('2026-11-18');
  });

  it('refuses what it cannot place', () => {
    expect(dpdTime('11/18/2026')).toBeNull();
    expect(dpdTime('13/18/2026 1:00:00 PM')).toBeNull();
    expect(dpdTime('11/18/2026 13:00:00 PM')).toBeNull();
    expect(dpdTime('31.02.2026 10:00')).toBeNull();
    expect(dpdTime('yesterday')).toBeNull();
    expect(dpdTime(42)).toBeNull();
    expect(dpdTime(null)).toBeNull();
  });

  it('reads places with and without a country', () => {
    expect(dpdPlace('LEEDS (GB)')).toMatchObject({ place: 'Leeds, GB', city: 'Leeds', country_code: 'GB' });
    expect(dpdPlace('Somewhere (XX)')).toMatchObject({ place: 'Somewhere (XX)', line1: 'Somewhere (XX)', country_code: null });
    expect(dpdPlace('Shop 12 (NL)', 'pickup_point')).toMatchObject({ place: 'Shop 12', location_type: 'pickup_point', country_code: 'NL' });
    expect(dpdPlace('')).toBeNull();
  });

  it('reads a window, a day, or nothing from Predict’s text', () => {
    const predict = (...lines: string[]) => ({ predictInformation: { content: lines.map((content) => ({ content: [content] })) } });
    expect(mapExpectedDelivery(predict('Tomorrow, 2026-07-01, 09:30 – 10:30'))).toEqual({
      from: '2026-07-01T09:30:00+02:00',
      to: '2026-07-01T10:30:00+02:00',
    });
    expect(mapExpectedDelivery(predict('On 02.12.2026'))).toEqual({ from: '2026-12-02', to: '2026-12-02' });
    expect(mapExpectedDelivery(predict('On 12/02/2026 10:00 – 11:00'))).toBeUndefined();
    expect(mapExpectedDelivery(predict('02.12.2026 or 03.12.2026'))).toBeUndefined();
    expect(mapExpectedDelivery(predict('02.12.2026 from 10:00'))).toBeUndefined();
    expect(mapExpectedDelivery(predict('02.12.2026 11:00 – 10:00'))).toBeUndefined();
    expect(mapExpectedDelivery(predict('no date at all'))).toBeUndefined();
    expect(mapExpectedDelivery(null)).toBeUndefined();
    expect(mapExpectedDelivery({ predictInformation: '' })).toBeUndefined();
  });
});

describe('DPD code table', () => {
  it('lists every status DPD documents, each to one of our keys', () => {
    const documented = [
      // DPD Germany's WSDL enumeration (SHIPMENT is the shipment's heading, not a step).
      'ACCEPTED',
      'AT_SENDING_DEPOT',
      'ON_THE_ROAD',
      'AT_DELIVERY_DEPOT',
      'DELIVERED',
      // DPD Netherlands' and Belgium's scan types.
      'PickedUp',
      'Depot',
      'BetweenDepots',
      'Courier',
      'ReturningFromDelivery',
      'DeliveryFailure',
      'Customs',
      'Warehouse',
      'ParcelShop',
      'Consolidation',
      'Delivered',
    ];
    for (const status of documented) expect(isEventKey(DPDEUR_CODES[status]), status).toBe(true);
    expect(
      Object.keys(DPDEUR_CODES)
        .filter((code) => !code.includes(':'))
        .sort(),
    ).toEqual([...documented].sort());
    expect(DPDEUR_CODES.ParcelShop).toBe('available_for_pickup');
  });
});

describe('DPD SOAP requests and faults', () => {
  it('writes the tracking request with the token in the authentication header, every value escaped', () => {
    const text = trackingEnvelope({ delisId: 'A&B', authToken: 't<1>', language: 'en_US', parcelLabelNumber: '09980000000011' });
    expect(text).toContain('xmlns:ns="http://dpd.com/common/service/types/Authentication/2.0"');
    expect(text).toContain('xmlns:ns1="http://dpd.com/common/service/types/ParcelLifeCycleService/2.0"');
    expect(text).toContain('<soapenv:Header><ns:authentication><delisId>A&amp;B</delisId><authToken>t&lt;1&gt;</authToken>');
    expect(text).toContain('<ns1:getTrackingData><parcelLabelNumber>09980000000011</parcelLabelNumber></ns1:getTrackingData>');
    expect(parseDpdXml(text)).not.toBeNull();
    const login = loginEnvelope({ version: '2.1', delisId: 'user', password: 'p"w', language: 'de_DE' });
    expect(login).toContain('xmlns:ns="http://dpd.com/common/service/types/LoginService/2.1"');
    expect(login).toContain(
      '<ns:getAuth><delisId>user</delisId><password>p&quot;w</password><messageLanguage>de_DE</messageLanguage></ns:getAuth>',
    );
  });

  it('tells a refused token from a refused request from DPD’s own failure', () => {
    const token = faultOf(dpdFixture('fault-token'));
    expect(token).toMatchObject({ authentication: true, code: 'LOGIN_5', faultcode: 'Server' });
    expect(isRefusal(token)).toBe(true);
    const client = faultOf(dpdFixture('fault-client'));
    expect(client).toMatchObject({ authentication: false, code: 'EXAMPLE_INVALID_PARCEL', faultcode: 'Client' });
    expect(isRefusal(client)).toBe(true);
    expect(isRefusal(faultOf(dpdFixture('fault-server')))).toBe(false);
    expect(faultOf(dpdFixture('de-delivered'))).toBeNull();
  });
});
