import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { carrierPudoUuid } from '../../../src/carriers/booking.js';
import { coordinate, locatorRequest, mapLocatorResponse } from '../../../src/carriers/upsglb/upsglb.locator.js';
import { fixture, fixtureText } from './ups-server.js';
import { specProblems } from './ups-spec.js';

const NOW = new Date('2026-11-23T12:00:00.000Z');

describe('UPS Locator request', () => {
  it('a point: the Geocode as UPS writes it (15 characters), kilometres, Access Points only, nearest first', () => {
    const body = locatorRequest({ lat: 52.3731, lng: 4.8924, radius_meters: 2_500, limit: 10, services: ['drop_off', 'returns'] }) as any;
    expect(specProblems('LOCATORRequestWrapper', body)).toEqual([]);
    expect(body.LocatorRequest).toEqual({
      Request: { RequestAction: 'Locator' },
      OriginAddress: { Geocode: { Latitude: '52.373100000000', Longitude: '4.8924000000000' }, MaximumListSize: '10' },
      Translate: { Locale: 'en_US' },
      UnitOfMeasurement: { Code: 'KM' },
      LocationSearchCriteria: {
        AccessPointSearch: {
          AccessPointStatus: '01',
          IncludeCriteria: { ServiceOfferingList: { ServiceOffering: [{ Code: '006', Description: 'Drop Off' }] } },
        },
        MaximumListSize: '10',
        SearchRadius: '5',
      },
      SortCriteria: { SortType: '01' },
    });
  });

  it('a postal code in a country; the radius and list size kept within what UPS takes', () => {
    const body = locatorRequest({ postal_code: '1015 CJ', country_code: 'nl', radius_meters: 400_000, limit: 200 }) as any;
    expect(specProblems('LOCATORRequestWrapper', body)).toEqual([]);
    expect(body.LocatorRequest.OriginAddress).toEqual({
      AddressKeyFormat: { PostcodePrimaryLow: '1015CJ', CountryCode: 'NL' },
      MaximumListSize: '50',
    });
    expect(body.LocatorRequest.LocationSearchCriteria).toEqual({
      AccessPointSearch: { AccessPointStatus: '01' },
      MaximumListSize: '50',
      SearchRadius: '150',
    });
  });

  it('coordinates are always 15 characters', () => {
    for (const value of [0, -0.5, 52.37, -122.4194155, 179.99999999, -90]) {
      expect(coordinate(value)).toHaveLength(15);
      expect(Number(coordinate(value))).toBeCloseTo(value, 8);
    }
  });
});

describe('UPS Locator answer', () => {
  it('maps the Access Points as the expected records (hours by service, cut-offs, lockers, zones)', () => {
    expect(mapLocatorResponse(fixture('locator'), 'upsglb', NOW)).toEqual(JSON.parse(fixtureText('locator.expected.json')));
  });

  it('ids, uuids, services and types: a shop with a lunch break, a locker open round the clock, none without coordinates', () => {
    const [shop, locker, ...rest] = mapLocatorResponse(fixture('locator'), 'upsglb', NOW)!;
    expect(rest).toEqual([]);
    expect(shop).toMatchObject({
      pudo_location_id: 'NL0004711',
      pudo_location_uuid: carrierPudoUuid('upsglb', 'NL0004711'),
      lat: 52.37402,
      lng: 4.89011,
      services: ['drop_off', 'pick_up'],
      distance_meters: 200,
      address: {
        mapped_location_type: 'parcel_shop',
        line1: 'Prinsenstraat 12',
        line2: 'Winkel 2',
        postal_code: '1015DB',
        phone: '31201234567',
      },
    });
    // "GMT+1" is no IANA zone: the zone of the place's country is used.
    expect(shop.operating_hours_calc.find((h) => h.service_name === 'pick_up' && h.operating_day === 'monday')).toEqual({
      service_name: 'pick_up',
      operating_day: 'monday',
      time_zone: 'Europe/Amsterdam',
      first_open_hours: '08:30-12:30',
      second_open_hours: '13:30-18:00',
      first_cutoff: null,
      second_cutoff: null,
    });
    expect(shop.cutoff_hours).toContainEqual({ service: 'drop_off', day_of_week: 'friday', cutoff_at: '16:30' });
    expect(shop.opening_hours.some((h) => h.day_of_week === 'sunday')).toBe(false);
    expect(locker).toMatchObject({ address: { mapped_location_type: 'parcel_locker', phone: null }, services: ['drop_off', 'pick_up'] });
    expect(locker.opening_hours).toHaveLength(7);
  });

  it('no DropLocation is an empty answer; a body that is not a LocatorResponse is unreadable; any JSON maps without a throw', () => {
    expect(mapLocatorResponse({ LocatorResponse: { Response: { ResponseStatusCode: '1' }, SearchResults: {} } }, 'upsglb', NOW)).toEqual(
      [],
    );
    expect(mapLocatorResponse({ errors: [] }, 'upsglb', NOW)).toBeNull();
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 7 }), (value) => {
        mapLocatorResponse(value, 'upsglb', NOW);
        mapLocatorResponse({ LocatorResponse: { SearchResults: { DropLocation: [value] } } }, 'upsglb', NOW);
      }),
      { numRuns: 300 },
    );
  });
});
