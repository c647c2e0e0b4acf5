import { describe, expect, it } from 'vitest';
import { checkPostnlBooking } from '../../../src/carriers/postnl/postnl.booking.js';
import { readParty } from '../../../src/carriers/postnl/postnl.parties.js';
import { bookRequest, CONSUMER_DE, CONSUMER_NL, MERCHANT_NL, postnlPoint } from './postnl-book-requests.js';
import { BOOKING_SETTINGS } from './postnl-shipping-server.js';

const check = (overrides: Parameters<typeof bookRequest>[0] = {}, settings: Record<string, unknown> = BOOKING_SETTINGS) =>
  checkPostnlBooking(bookRequest(overrides), settings);
const paths = (errors: ReturnType<typeof check>) => errors.map((e) => e.path.join('.'));

describe('postnl checkBooking', () => {
  it('accepts the standard request, a return 2285, a point booking 3533 and Parcels EU 4944', () => {
    expect(check()).toEqual([]);
    expect(
      check({ type_of_shipment: 'return', shipping_service: '2285', sender: { ...CONSUMER_NL }, recipient: { ...MERCHANT_NL } }),
    ).toEqual([]);
    expect(check({ shipping_service: '3533', pudo_location: postnlPoint() })).toEqual([]);
    expect(check({ shipping_service: '4944', recipient: { ...CONSUMER_DE } })).toEqual([]);
  });

  it('needs the contract’s customer code and number', () => {
    const errors = check({}, { api_key: 'k' });
    expect(paths(errors)).toEqual(['carrier_reference']);
    expect(errors[0].message).toContain('settings.customer_code');
  });

  it('names the product that fits: unknown codes, a return product outbound, an outbound product for a return, a point without a pick-up product', () => {
    expect(check({ shipping_service: '9999' })[0].message).toContain('3085 (Standard shipment)');
    expect(check({ shipping_service: null })[0].path).toEqual(['shipping_service']);
    expect(check({ shipping_service: '2285' })[0].message).toContain('use 3085');
    const outboundForReturn = check({
      type_of_shipment: 'return',
      shipping_service: '3085',
      sender: { ...CONSUMER_NL },
      recipient: { ...MERCHANT_NL },
    });
    expect(outboundForReturn[0].message).toContain('use 2285');
    expect(paths(check({ pudo_location: postnlPoint() }))).toEqual(['shipping_service']);
    expect(paths(check({ shipping_service: '3533' }))).toEqual(['pudo_location_uuid']);
    const returnToPoint = check({
      type_of_shipment: 'return',
      shipping_service: '2285',
      sender: { ...CONSUMER_NL },
      recipient: { ...MERCHANT_NL },
      pudo_location: postnlPoint(),
    });
    expect(paths(returnToPoint)).toEqual(['pudo_location_uuid']);
  });

  it('checks where parcels go: from the Netherlands, 3085 within it, 4944 to other EU countries', () => {
    expect(paths(check({ recipient: { ...CONSUMER_DE } }))).toEqual(['recipient_address.country_code']);
    expect(paths(check({ shipping_service: '4944' }))).toEqual(['recipient_address.country_code']);
    expect(paths(check({ shipping_service: '4944', recipient: { ...CONSUMER_DE, country_code: 'CH', postal_code: '8001' } }))).toEqual([
      'recipient_address.country_code',
    ]);
    expect(paths(check({ sender: { ...CONSUMER_DE } }))).toEqual(['sender_address.country_code']);
  });

  it('Benelux addresses: a Dutch postal code, a house number, a city, a name', () => {
    const errors = check({ recipient: { country_code: 'NL', postal_code: '1015', line1: 'Keizersgracht' } });
    expect(paths(errors).sort()).toEqual([
      'recipient_address.city',
      'recipient_address.first_name',
      'recipient_address.line1',
      'recipient_address.postal_code',
    ]);
    expect(paths(check({ recipient: { ...CONSUMER_NL, house_number: 'A' } }))).toEqual(['recipient_address.house_number']);
    expect(paths(check({ recipient: { ...CONSUMER_NL, phone: '12' } }))).toEqual(['recipient_address.phone']);
    expect(paths(check({ recipient: null }))).toEqual(['recipient_address']);
  });

  it('weights and sizes in PostNL’s limits, per parcel; several parcels only for a domestic outbound shipment', () => {
    expect(paths(check({ parcels: [{ weight_grams: 40_000, dimensions_cm: null }], weight_grams: 40_000 }))).toEqual(['weight']);
    expect(
      paths(check({ parcels: [{ weight_grams: 1000, dimensions_cm: { length: 200, width: 10, height: 10 } }], weight_grams: 1000 })),
    ).toEqual(['dimensions']);
    const two = [
      { weight_grams: 1000, dimensions_cm: null },
      { weight_grams: null, dimensions_cm: null },
    ];
    expect(paths(check({ parcels: two }))).toEqual(['carrier_metadata.parcels.1.weight']);
    expect(
      paths(
        check({
          parcels: two.map(() => ({ weight_grams: 1000, dimensions_cm: null })),
          shipping_service: '3533',
          pudo_location: postnlPoint(),
        }),
      ),
    ).toEqual(['carrier_metadata.parcels']);
    const eleven = Array.from({ length: 11 }, () => ({ weight_grams: 500, dimensions_cm: null }));
    expect(check({ parcels: eleven })[0].message).toContain('at most 10');
  });

  it('options: label format, Smart Returns with the consumer’s e-mail, nothing unknown', () => {
    expect(paths(check({ carrier_metadata: { label_format: 'png' } }))).toEqual(['carrier_metadata.label_format']);
    expect(paths(check({ carrier_metadata: { colour: 'red' } }))).toEqual(['carrier_metadata.colour']);
    expect(paths(check({ carrier_metadata: { smart_returns: true } }))).toEqual(['carrier_metadata.smart_returns']);
    const consumer = { ...CONSUMER_NL, email: undefined };
    const smart = check({
      type_of_shipment: 'return',
      shipping_service: '2285',
      sender: consumer,
      recipient: { ...MERCHANT_NL },
      carrier_metadata: { smart_returns: true },
    });
    expect(paths(smart)).toEqual(['sender_address.email']);
    expect(paths(check({ shipping_service: '3533', pudo_location: postnlPoint(), recipient: consumer }))).toEqual([
      'recipient_address.email',
    ]);
  });
});

describe('postnl addresses', () => {
  const read = (address: Record<string, unknown>) => readParty(address, 'recipient_address', 'addressee');

  it('splits a first line into street, number and addition; keeps a line it cannot split whole', () => {
    expect(
      read({ ...CONSUMER_NL, street_name: undefined, house_number: undefined, line1: 'Laan van Meerdervoort 12 bis' }).address,
    ).toMatchObject({
      Street: 'Laan van Meerdervoort',
      HouseNr: '12',
      HouseNrExt: 'bis',
    });
    expect(read({ ...CONSUMER_NL, street_name: undefined, line1: 'Plein 1944 4-B' }).address).toMatchObject({
      Street: 'Plein 1944',
      HouseNr: '4',
      HouseNrExt: 'B',
    });
    const german = read({ ...CONSUMER_DE, line1: '8 Schillerstraße' });
    expect(german.address).toMatchObject({ StreetHouseNrExt: '8 Schillerstraße' });
    expect(german.origins.StreetHouseNrExt).toEqual(['recipient_address', 'line1']);
  });

  it('a person alone is named in Name; a company keeps the person beside it', () => {
    expect(read({ ...CONSUMER_NL, last_name: undefined }).address).toMatchObject({ Name: 'Daan' });
    expect(read({ ...CONSUMER_NL, last_name: undefined }).address.FirstName).toBeUndefined();
    expect(read({ ...MERCHANT_NL }).address).toMatchObject({ CompanyName: 'Tulp Textiel BV', FirstName: 'Noor', Name: 'de Vries' });
  });
});
