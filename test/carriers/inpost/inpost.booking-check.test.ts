import { describe, expect, it } from 'vitest';
import { checkInpostBooking } from '../../../src/carriers/inpost/inpost.booking.js';
import { fieldErrorsOf, flattenDetails } from '../../../src/carriers/inpost/inpost.errors.js';
import { streetOf } from '../../../src/carriers/inpost/inpost.parties.js';
import { mapPoints } from '../../../src/carriers/inpost/inpost.points.js';
import { createShipmentBody, readShipment, referenceOf } from '../../../src/carriers/inpost/inpost.shipment.js';
import { bookRequest, CONSUMER_PL, lockerRequest } from './inpost-book-requests.js';
import { createProblems } from './shipx-schema.js';
import { BOOKING_SETTINGS } from './shipx-server.js';

/** The pure parts of InPost booking: our checks, the create body, ShipX's refusals mapped to our fields, points. */
const paths = (request = bookRequest(), settings: Record<string, unknown> = { ...BOOKING_SETTINGS }) =>
  checkInpostBooking(request, settings).map((e) => e.path.join('.'));

describe('checkInpostBooking', () => {
  it('accepts the courier and locker fixtures, with the organization id as digits or a number', () => {
    expect(paths()).toEqual([]);
    expect(paths(lockerRequest())).toEqual([]);
    expect(paths(bookRequest(), { ...BOOKING_SETTINGS, organization_id: 48213 })).toEqual([]);
  });

  it('needs the token and the organization id, and a service it books for the direction', () => {
    expect(paths(bookRequest(), { api_token: 'x' })).toEqual(['carrier_reference']);
    expect(paths(bookRequest({ shipping_service: 'overnight' }))).toEqual(['shipping_service']);
    expect(paths(bookRequest({ type_of_shipment: 'return', shipping_service: 'inpost_courier_express_1000' }))).toEqual([
      'shipping_service',
    ]);
  });

  it('addresses in Poland with a building number, a postal code and a name', () => {
    const recipient = { ...CONSUMER_PL, house_number: null, street_name: null, line1: 'Rynek', postal_code: '1234', country_code: 'DE' };
    expect(paths(bookRequest({ recipient }))).toEqual([
      'recipient_address.country_code',
      'recipient_address.line1',
      'recipient_address.postal_code',
    ]);
    expect(paths(bookRequest({ recipient: { ...CONSUMER_PL, first_name: '', last_name: '' } }))).toEqual(['recipient_address.first_name']);
    expect(paths(bookRequest({ sender: null }))).toEqual([]);
    expect(paths(bookRequest({ type_of_shipment: 'return', sender: null }))).toEqual(['sender_address']);
  });

  it('a locker needs its locker, a mobile number and an e-mail, one parcel of at most size C', () => {
    expect(paths(lockerRequest({ carrier_metadata: { parcel_template: 'small' } }))).toEqual(['pudo_location_uuid']);
    expect(paths(lockerRequest({ recipient: { ...CONSUMER_PL, phone: '+49 30 1234567', email: null } }))).toEqual([
      'recipient_address.phone',
      'recipient_address.email',
    ]);
    const big = { weight_grams: 26_000, dimensions_cm: { length: 70, width: 30, height: 20 } };
    expect(paths(lockerRequest({ carrier_metadata: { target_point: 'KRA010' }, parcels: [big], weight_grams: 26_000 }))).toEqual([
      'weight',
      'dimensions',
    ]);
    const two = [big, big];
    expect(paths(lockerRequest({ parcels: two }))).toEqual(['carrier_metadata.parcels']);
  });

  it('courier parcels need weight and size, each at its own path; lockers’ options are refused for couriers', () => {
    const parcels = [
      { weight_grams: 1000, dimensions_cm: { length: 10, width: 10, height: 10 } },
      { weight_grams: null, dimensions_cm: null },
    ];
    expect(paths(bookRequest({ parcels }))).toEqual(['carrier_metadata.parcels.1.weight', 'carrier_metadata.parcels.1.dimensions']);
    expect(paths(bookRequest({ carrier_metadata: { parcel_template: 'small', target_point: 'KRA010', colour: 'red' } }))).toEqual([
      'carrier_metadata.target_point',
      'carrier_metadata.parcel_template',
      'carrier_metadata.colour',
    ]);
    expect(paths(bookRequest({ carrier_metadata: { sending_method: 'parcel_locker' } }))).toEqual(['carrier_metadata.dropoff_point']);
  });
});

describe('the create body', () => {
  it('passes our schema of ShipX’s forms for courier, locker, several parcels and a return', () => {
    const several = bookRequest({
      parcels: [
        { weight_grams: 500, dimensions_cm: { length: 10.04, width: 9, height: 1 } },
        { weight_grams: 700, dimensions_cm: { length: 20, width: 9, height: 2 } },
      ],
    });
    const ret = bookRequest({ type_of_shipment: 'return', sender: { ...CONSUMER_PL }, recipient: bookRequest().sender });
    for (const request of [bookRequest(), lockerRequest(), several, ret]) expect(createProblems(createShipmentBody(request))).toEqual([]);
    expect(createShipmentBody(several).parcels).toMatchObject([
      { id: '1', dimensions: { length: 100 }, weight: { amount: 0.5 } },
      { id: '2', weight: { amount: 0.7 } },
    ]);
    expect(createShipmentBody(ret).is_return).toBe(true);
    const long = bookRequest({ parcels: [{ weight_grams: 3000, dimensions_cm: { length: 130, width: 20, height: 10 } }] });
    expect(createShipmentBody(long).parcels).toMatchObject([{ is_non_standard: true }]);
    expect(createShipmentBody(bookRequest()).parcels).toMatchObject([{ is_non_standard: false }]);
  });

  it('keeps our reference whole within ShipX’s 100 characters', () => {
    const reference = referenceOf(bookRequest({ shipment_reference: 'Z'.repeat(150) }));
    expect(reference.length).toBeLessThanOrEqual(100);
    expect(reference.endsWith(' / WB5A0B6C2D3E4F4A5B9C')).toBe(true);
    expect(referenceOf(bookRequest({ shipment_reference: null }))).toBe('WB5A0B6C2D3E4F4A5B9C');
  });

  it('splits a street line before its building number', () => {
    expect(streetOf({ line1: 'Aleje Jerozolimskie 123A/5' })).toMatchObject({ street: 'Aleje Jerozolimskie', building: '123A/5' });
    expect(streetOf({ line1: 'ul. 3 Maja 7', line2: 'piętro 2' })).toMatchObject({ street: 'ul. 3 Maja, piętro 2', building: '7' });
    expect(streetOf({ line1: 'Rynek' })).toMatchObject({ building: '', field: 'line1' });
  });
});

describe('ShipX’s refusals', () => {
  it('reads details nested in lists of forms, flat, and with dotted keys', () => {
    expect(
      flattenDetails({
        receiver: [{ phone: ['invalid'], address: [{ post_code: ['invalid_format'] }] }],
        parcels: [{ weight: ['required'] }, { dimensions: [{ length: ['too_big'] }] }],
        'sender.email': ['invalid'],
        post_code: ['invalid_format'],
      }),
    ).toEqual([
      { path: ['receiver', 'phone'], keys: ['invalid'] },
      { path: ['receiver', 'address', 'post_code'], keys: ['invalid_format'] },
      { path: ['parcels', 0, 'weight'], keys: ['required'] },
      { path: ['parcels', 1, 'dimensions', 'length'], keys: ['too_big'] },
      { path: ['sender', 'email'], keys: ['invalid'] },
      { path: ['post_code'], keys: ['invalid_format'] },
    ]);
  });

  it('maps ShipX’s attributes to the merchant’s fields, by direction and parcel', () => {
    const parcels = [
      { weight_grams: 500, dimensions_cm: { length: 10, width: 9, height: 1 } },
      { weight_grams: 700, dimensions_cm: { length: 20, width: 9, height: 2 } },
    ];
    const details = {
      receiver: [{ phone: ['invalid'], address: [{ building_number: ['required'], street: ['too_long'] }] }],
      sender: [{ company_name: ['too_long'] }],
      parcels: [{ weight: ['required'] }, { dimensions: ['invalid'] }],
      custom_attributes: [{ target_point: ['does_not_exist'] }],
      service: ['invalid'],
      unknown_thing: ['invalid'],
    };
    expect(fieldErrorsOf(details, bookRequest({ parcels })).map((e) => e.path.join('.'))).toEqual([
      'recipient_address.phone',
      'recipient_address.house_number',
      'recipient_address.street_name',
      'sender_address.company',
      'carrier_metadata.parcels.0.weight',
      'carrier_metadata.parcels.1.dimensions',
      'carrier_metadata.target_point',
      'shipping_service',
    ]);
    expect(fieldErrorsOf({ parcels: [{ weight: ['required'] }] }, bookRequest()).map((e) => e.path)).toEqual([['weight']]);
  });

  it('never throws on any details and shipment shapes', () => {
    for (const value of [null, 1, 'x', [], [[['deep']]], { a: { b: { c: { d: { e: { f: { g: { h: { i: ['x'] } } } } } } } } }]) {
      expect(() => fieldErrorsOf(value, bookRequest())).not.toThrow();
      expect(readShipment(value)).toBeNull();
      expect(mapPoints(value, 'inpost', new Date())).toBeNull();
    }
  });
});
