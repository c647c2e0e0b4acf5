import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { carrierPudoUuid } from '../../../src/carriers/booking.js';
import { fedexErrors, fieldErrorsOf } from '../../../src/carriers/fdxglb/fdxglb.errors.js';
import { mapLocationsResponse } from '../../../src/carriers/fdxglb/fdxglb.locations.js';
import { readCancelResponse, readShipResponse } from '../../../src/carriers/fdxglb/fdxglb.ship.js';
import { fixture } from './fdxglb.fixtures.js';
import { bookRequest } from './fedex-book-requests.js';

const NOW = new Date('2026-11-30T12:00:00Z');
const error = (code: string, message = '') => ({ errors: [{ code, message }] });
const pathsOf = (body: unknown, request = bookRequest()) => fieldErrorsOf(fedexErrors(body), request).map((e) => e.path.join('.'));

describe('fdxglb refusals → our field paths', () => {
  it('reads the party and the field from FedEx’s code', () => {
    expect(pathsOf(fixture('ship-refused.json'))).toEqual(['recipient_address.postal_code']);
    expect(pathsOf(error('SHIPPER.POSTALSTATE.MISMATCH'))).toEqual(['sender_address.postal_code']);
    expect(pathsOf(error('RECIPIENTCONTACT.PHONENUMBER.INVALID'))).toEqual(['recipient_address.phone']);
    expect(pathsOf(error('SHIPPER.STATEORPROVINCECODE.INVALID'))).toEqual(['sender_address.state_or_province']);
    expect(pathsOf(error('RECIPIENTS.ADDRESS.CITY.INVALID'))).toEqual(['recipient_address.city']);
    expect(pathsOf(error('ACCOUNTNUMBER.REGISTRATION.REQUIRED'))).toEqual(['carrier_reference']);
    expect(pathsOf(error('SERVICETYPE.NOT.ALLOWED'))).toEqual(['shipping_service']);
    expect(pathsOf(error('HOLDATLOCATION.LOCATIONID.INVALID'))).toEqual(['pudo_location_uuid']);
    expect(pathsOf(error('COMMODITY.HARMONIZEDCODE.INVALID'))).toEqual(['line_items']);
    expect(pathsOf(error('PACKAGE.WEIGHT.EXCEEDED'))).toEqual(['weight']);
    const parcels = [bookRequest().parcels[0], bookRequest().parcels[0]];
    expect(pathsOf(error('PACKAGE.WEIGHT.EXCEEDED'), bookRequest({ parcels }))).toEqual(['carrier_metadata.parcels']);
  });

  it('falls back on the message, and names no field when neither says one', () => {
    expect(pathsOf(error('SOME.NEW.CODE', 'Recipient postal code is not valid for the country.'))).toEqual([
      'recipient_address.postal_code',
    ]);
    expect(pathsOf(error('SHIPPER.UNKNOWN.PROBLEM'))).toEqual(['sender_address']);
    expect(pathsOf(error('INTERNAL.SERVER.ERROR', 'Unexpected error'))).toEqual([]);
    expect(pathsOf({ errors: 'nope' })).toEqual([]);
    const [first] = fieldErrorsOf(fedexErrors(fixture('ship-refused.json')), bookRequest());
    expect(first.message).toBe(
      "FedEx refused it: RECIPIENT.POSTALSTATE.MISMATCH: The recipient's postal code does not belong to its state.",
    );
  });
});

describe('fdxglb Locations answer → pick-up points', () => {
  const locations = mapLocationsResponse(fixture('locations.json'), 'fdxglb', NOW, true)!;

  it('keeps every location with an id and coordinates, with FedEx’s distance in metres', () => {
    expect(locations.map((l) => [l.pudo_location_id, l.distance_meters, l.address.mapped_location_type])).toEqual([
      ['ATLWB', 800, 'parcel_shop'],
      ['ATLWC', 2400, 'parcel_shop'],
      ['ATLWD', 4828, 'parcel_locker'],
    ]);
    expect(locations[0]).toMatchObject({
      pudo_location_uuid: carrierPudoUuid('fdxglb', 'ATLWB'),
      carrier_id: 'fdxglb',
      lat: 33.758,
      lng: -84.388,
      services: ['drop_off', 'pick_up'],
      address: {
        address_name: 'FedEx Office Print & Ship Center',
        line1: '410 Riverbend Ave',
        postal_code: '30303',
        city: 'ATLANTA',
        state_or_province: 'GA',
        country_code: 'US',
        phone: '4045550142',
        location_type: 'fedex_office',
      },
      additional_info: { fedex_location_type: 'FEDEX_OFFICE', locker_available: false },
    });
  });

  it('reads the week’s hours in the location’s zone, two windows in order, all-day and closed days', () => {
    const [office, onsite, locker] = locations;
    expect(office.opening_hours).toHaveLength(6);
    expect(office.opening_hours.find((h) => h.day_of_week === 'saturday')).toEqual({
      day_of_week: 'saturday',
      open_hour: '10:00',
      close_hour: '16:00',
    });
    expect(office.operating_hours_calc[0]).toMatchObject({
      service_name: 'drop_off',
      operating_day: 'monday',
      time_zone: 'America/New_York',
      first_open_hours: '08:00-19:00',
    });
    expect(onsite.services).toEqual(['pick_up']);
    expect(onsite.opening_hours).toEqual([
      { day_of_week: 'monday', open_hour: '00:00', close_hour: '23:59' },
      { day_of_week: 'tuesday', open_hour: '07:00', close_hour: '11:30' },
      { day_of_week: 'tuesday', open_hour: '13:00', close_hour: '20:00' },
    ]);
    expect(onsite.operating_hours_calc.find((d) => d.operating_day === 'tuesday')).toMatchObject({
      first_open_hours: '07:00-11:30',
      second_open_hours: '13:00-20:00',
    });
    expect(locker.opening_hours).toEqual([]);
    expect(locker.address.address_name).toBe('1 Depot Square');
    // Without capabilities a location takes parcels, and holds them only when the search asked for that.
    expect(mapLocationsResponse(fixture('locations.json'), 'fdxglb', NOW, false)![2].services).toEqual(['drop_off']);
  });

  it('is null for anything that is not a Locations answer, and never throws', () => {
    expect(mapLocationsResponse({ errors: [] }, 'fdxglb', NOW)).toBeNull();
    expect(mapLocationsResponse({ output: {} }, 'fdxglb', NOW)).toEqual([]);
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (body) => {
        mapLocationsResponse(body, 'fdxglb', NOW);
        mapLocationsResponse(
          {
            output: {
              locationDetailList: [
                body,
                {
                  locationId: 'X',
                  geoPositionalCoordinates: { latitude: 1, longitude: 2 },
                  storeHours: body,
                  locationCapabilities: body,
                  contactAndAddress: body,
                },
              ],
            },
          },
          'fdxglb',
          NOW,
        );
        readShipResponse(body);
        readShipResponse({ output: { transactionShipments: [body, { pieceResponses: [body] }] } });
        readCancelResponse(body);
        fedexErrors(body);
      }),
      { numRuns: 300 },
    );
  });
});

describe('fdxglb Ship answers', () => {
  it('reads pieces, labels and documents; null without a piece', () => {
    const label = { contentType: 'LABEL', docType: 'PDF', encodedLabel: Buffer.from('%PDF-1.4').toString('base64') };
    const read = readShipResponse({
      output: {
        transactionShipments: [
          {
            serviceType: 'FEDEX_GROUND',
            pieceResponses: [{ trackingNumber: '794900000017', packageDocuments: [label] }],
            shipmentDocuments: [{ contentType: 'COMMERCIAL_INVOICE', docType: 'PDF', encodedLabel: 'not base64!' }],
          },
        ],
        alerts: [{ code: 'SHIP.NOTE', message: 'Noted' }],
      },
    });
    expect(read).toMatchObject({
      masterTrackingNumber: '794900000017',
      serviceType: 'FEDEX_GROUND',
      documents: [],
      alerts: ['SHIP.NOTE: Noted'],
    });
    expect(read?.pieces[0].label?.bytes.toString()).toBe('%PDF-1.4');
    expect(readShipResponse({ output: { transactionShipments: [{ pieceResponses: [] }] } })).toBeNull();
    expect(readCancelResponse({ output: { cancelledShipment: true, message: 'done' } })).toEqual({ cancelled: true, message: 'done' });
    expect(readCancelResponse({ output: {} })).toBeNull();
  });
});
