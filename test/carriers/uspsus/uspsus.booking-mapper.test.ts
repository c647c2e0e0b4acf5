import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorEntries, fieldErrorsOf } from '../../../src/carriers/uspsus/uspsus.errors.js';
import { labelRequest, readMultipartAnswer, readVendorAnswer } from '../../../src/carriers/uspsus/uspsus.label.js';
import { locationsQuery, mapLocationsAnswer } from '../../../src/carriers/uspsus/uspsus.locations.js';
import { DEFAULT_PAYMENT_TOKEN_SECONDS, readPaymentAnswer } from '../../../src/carriers/uspsus/uspsus.payment.js';
import { bookRequest } from './usps-book-requests.js';
import { fixture } from './usps-server.js';

const NOW = new Date('2026-11-23T15:00:00Z');
const refusal = (...parameters: Array<string | undefined>) => ({
  apiVersion: '3.0',
  error: {
    code: '400',
    message: 'Bad Request',
    errors: parameters.map((parameter) => ({
      status: '400',
      code: '400',
      title: 'Bad Request',
      detail: 'Invalid.',
      ...(parameter ? { source: { parameter } } : {}),
    })),
  },
});

describe('USPS refusals → our fields', () => {
  it('maps source.parameter in its spellings to the field the value came from', () => {
    const request = bookRequest();
    const entries = errorEntries(
      refusal(
        'toAddress.ZIPCode',
        '$.fromAddress.streetAddress',
        'toAddress/secondaryAddress',
        'packageDescription.weight',
        'packageDescription.length',
        'packageDescription.mailClass',
        'roles.accountNumber',
        'somethingElse',
        undefined,
      ),
    );
    expect(fieldErrorsOf(entries, request).map((e) => e.path.join('.'))).toEqual([
      'recipient_address.postal_code',
      'sender_address.line1',
      'recipient_address.line2',
      'weight',
      'dimensions',
      'shipping_service',
      'carrier_reference',
    ]);
  });

  it('a return: toAddress is the merchant (to_address), fromAddress the consumer (from_address)', () => {
    const request = bookRequest({ type_of_shipment: 'return', sender_field: 'from_address', recipient_field: 'to_address' });
    expect(fieldErrorsOf(errorEntries(refusal('toAddress.city', 'fromAddress.phone')), request).map((e) => e.path.join('.'))).toEqual([
      'to_address.city',
      'from_address.phone',
    ]);
  });

  it('Hold For Pickup: the Post Office’s address and facility are the point chosen; the addressee’s contact stays theirs', () => {
    const request = bookRequest({ pudo_location: { pudo_location_id: '1390417', services: ['drop_off', 'pick_up'] } as never });
    expect(
      fieldErrorsOf(errorEntries(refusal('toAddress.facilityId', 'toAddress.ZIPCode', 'toAddress.email')), request).map((e) =>
        e.path.join('.'),
      ),
    ).toEqual(['pudo_location_uuid', 'pudo_location_uuid', 'recipient_address.email']);
  });

  it('an ErrorMessage without a list keeps its message; anything else is no ErrorMessage', () => {
    expect(errorEntries({ error: { code: '401', message: 'Unauthorized' } })).toEqual([
      { code: '401', title: null, detail: 'Unauthorized', parameter: null },
    ]);
    expect(errorEntries('<html>')).toEqual([]);
    fc.assert(fc.property(fc.jsonValue(), (body) => void fieldErrorsOf(errorEntries(body), bookRequest())));
  });
});

describe('USPS label answers', () => {
  const pdf = Buffer.from('%PDF-1.7\nlabel');

  it('reads the JSON answer Waybill asks for, and refuses one without a tracking number or an image', () => {
    const label = readVendorAnswer(
      { trackingNumber: '9205 5901 7554 7700 0000 17', postage: 7.25, labelImage: pdf.toString('base64') },
      false,
    );
    expect(label?.trackingNumber).toBe('9205590175547700000017');
    expect(Buffer.from(label!.image).equals(pdf)).toBe(true);
    expect(readVendorAnswer({ trackingNumber: '9205590175547700000017' }, false)).toBeNull();
    expect(readVendorAnswer({ labelImage: pdf.toString('base64') }, false)).toBeNull();
    expect(readVendorAnswer({ trackingNumber: '9205590175547700000017', returnLabelImage: pdf.toString('base64') }, true)).not.toBeNull();
    fc.assert(fc.property(fc.jsonValue(), fc.boolean(), (body, isReturn) => void readVendorAnswer(body, isReturn)));
  });

  it('reads USPS’s multipart answer: the metadata part and the image part in base64 (or already binary)', async () => {
    const boundary = 'b0undary';
    const parts = (image: Buffer | string, encoding: string) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="labelMetadata"\r\nContent-Type: application/json\r\n\r\n{"trackingNumber":"9205590175547700000017","postage":7.25}\r\n`,
        ),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="labelImage"; filename="label.pdf"\r\nContent-Type: application/pdf\r\n${encoding}\r\n`,
        ),
        Buffer.isBuffer(image) ? image : Buffer.from(image),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const type = `multipart/form-data; boundary=${boundary}`;
    const base64 = await readMultipartAnswer(parts(pdf.toString('base64'), 'Content-Transfer-Encoding: base64\r\n'), type, false);
    expect(base64?.metadata.postage).toBe(7.25);
    expect(Buffer.from(base64!.image).equals(pdf)).toBe(true);
    const binary = await readMultipartAnswer(parts(pdf, ''), type, false);
    expect(Buffer.from(binary!.image).equals(pdf)).toBe(true);
    expect(await readMultipartAnswer(Buffer.from('not multipart'), type, false)).toBeNull();
    expect(await readMultipartAnswer(parts(pdf, ''), type, true)).toBeNull();
  });

  it('asks for Priority Mail Express at its single-piece rate, large parcels as NONSTANDARD, and what the merchant chose', () => {
    const express = labelRequest(bookRequest({ shipping_service: 'PRIORITY_MAIL_EXPRESS' }), {});
    expect(express.body.packageDescription).toMatchObject({
      mailClass: 'PRIORITY_MAIL_EXPRESS',
      rateIndicator: 'PA',
      processingCategory: 'MACHINABLE',
    });
    const large = { weight_grams: 1250, dimensions_cm: { length: 80, width: 40, height: 30 } };
    expect(labelRequest(bookRequest({ parcels: [large] }), {}).body.packageDescription).toMatchObject({
      processingCategory: 'NONSTANDARD',
      length: 31.5,
    });
    const chosen = labelRequest(
      bookRequest({ carrier_metadata: { rate_indicator: 'CP', processing_category: 'NONSTANDARD', label_format: 'zpl' } }),
      {},
    );
    expect(chosen.format).toBe('zpl');
    expect(chosen.body.packageDescription).toMatchObject({ rateIndicator: 'CP', processingCategory: 'NONSTANDARD' });
    expect(labelRequest(bookRequest(), { label_format: 'png' }).body.imageInfo).toMatchObject({ imageType: 'PNG' });
  });
});

describe('USPS payment authorization answers', () => {
  it('lasts until the JWT’s exp, else 8 hours; no token is no answer', () => {
    const claims = Buffer.from(JSON.stringify({ exp: NOW.getTime() / 1000 + 3600 })).toString('base64url');
    expect(readPaymentAnswer({ paymentAuthorizationToken: `h.${claims}.s` }, NOW.getTime())).toEqual({
      token: `h.${claims}.s`,
      seconds: 3600,
    });
    expect(readPaymentAnswer({ paymentAuthorizationToken: 'opaque' }, NOW.getTime())?.seconds).toBe(DEFAULT_PAYMENT_TOKEN_SECONDS);
    expect(readPaymentAnswer({ paymentAuthorizationToken: '' }, NOW.getTime())).toBeNull();
    fc.assert(fc.property(fc.jsonValue(), (body) => void readPaymentAnswer(body, NOW.getTime())));
  });
});

describe('USPS Post Office locator', () => {
  it('maps Post Offices: hours per service, last collection as the drop-off cut-off, distance, closed and unplaced ones left out', () => {
    const locations = mapLocationsAnswer(fixture('post-office-locations'), 'uspsus', NOW)!;
    expect(locations.map((l) => l.pudo_location_id)).toEqual(['1390417', '1390422']);
    const [main, north] = locations;
    expect(main).toMatchObject({
      lat: 40.8801,
      lng: -73.9062,
      services: ['drop_off', 'pick_up'],
      distance_meters: 483,
      address: {
        address_name: 'RIVERTON MAIN',
        line1: '210 ELM RIDGE AVE',
        state_or_province: 'NY',
        country_code: 'US',
        phone: '7185550142',
      },
    });
    expect(main.opening_hours).toContainEqual({ day_of_week: 'saturday', open_hour: '09:00', close_hour: '12:30' });
    expect(main.operating_hours_calc).toContainEqual({
      service_name: 'pick_up',
      operating_day: 'monday',
      time_zone: 'US/Eastern',
      first_open_hours: '09:00-16:30',
      second_open_hours: null,
      first_cutoff: null,
      second_cutoff: null,
    });
    expect(main.operating_hours_calc).toContainEqual(
      expect.objectContaining({ service_name: 'drop_off', operating_day: 'monday', first_cutoff: '16:00' }),
    );
    expect(main.cutoff_hours).toHaveLength(5);
    expect(north.services).toEqual(['drop_off']);
    expect(mapLocationsAnswer({ locations: 'none' }, 'uspsus', NOW)).toBeNull();
    expect(mapLocationsAnswer({}, 'uspsus', NOW)).toEqual([]);
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 5 }), (body) => void mapLocationsAnswer(body, 'uspsus', NOW)));
  });

  it('asks by point or ZIP Code, the radius in whole miles', () => {
    expect(Object.fromEntries(locationsQuery({ lat: 40.88, lng: -73.9, radius_meters: 5000, limit: 10 }))).toEqual({
      LAT: '40.880000',
      LONG: '-73.900000',
      radius: '4',
      limit: '10',
    });
    expect(Object.fromEntries(locationsQuery({ postal_code: '10463-1234', country_code: 'US', radius_meters: 100, limit: 500 }))).toEqual({
      ZIPCode: '10463',
      radius: '1',
      limit: '50',
    });
  });
});
