import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haversineMeters } from '../../src/core/geo.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { bookableShipment, createShipment } from './fixtures.js';

const BERLIN = { lat: 52.52, lng: 13.405 };

describe('GET /v5/pudo-locations/', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ features: ['booking'], carriers: [{ carrier_reference: 'sb', booking: ['outbound'] }] });
  });
  afterAll(() => t.close());

  const search = (query: Record<string, string>) =>
    t.call(acct.token, 'GET', '/v5/pudo-locations/', undefined, { carrier_reference: 'sb', ...query });

  it('returns complete locations within the radius, nearest first', async () => {
    const res = await search({ lat: String(BERLIN.lat), lng: String(BERLIN.lng), radius_meters: '3000', limit: '50' });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as Array<Record<string, any>>;
    expect(data.length).toBeGreaterThan(3);
    const distances = data.map((l) => l.distance_meters);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const location of data) {
      expect(location.distance_meters).toBeLessThanOrEqual(3000);
      expect(Math.abs(haversineMeters(BERLIN, location as { lat: number; lng: number }) - location.distance_meters)).toBeLessThan(1.5);
      expect(location.carrier_id).toBe('sandbx');
    }
    expect(Object.keys(data[0]).sort()).toEqual(
      [
        'additional_info',
        'address',
        'carrier_id',
        'closing_periods',
        'cutoff_hours',
        'distance_meters',
        'lat',
        'lng',
        'opening_hours',
        'operating_hours_calc',
        'pudo_location_id',
        'pudo_location_uuid',
        'services',
        'updated_date',
        'uuid',
        'validity_period',
      ].sort(),
    );
    expect(data[0].address).toHaveProperty('mapped_location_types');
    expect(data[0].opening_hours.length).toBeGreaterThan(0);
  });

  it('widens with the radius and honours limit and services', async () => {
    const near = (await search({ lat: String(BERLIN.lat), lng: String(BERLIN.lng), radius_meters: '1000', limit: '100' })).json().data;
    const wide = (await search({ lat: String(BERLIN.lat), lng: String(BERLIN.lng), radius_meters: '10000', limit: '100' })).json().data;
    expect(wide.length).toBeGreaterThan(near.length);
    expect((await search({ lat: String(BERLIN.lat), lng: String(BERLIN.lng), limit: '2' })).json().data).toHaveLength(2);
    const returns = (await search({ lat: String(BERLIN.lat), lng: String(BERLIN.lng), services: 'returns', limit: '100' })).json().data;
    expect(returns.every((l: { services: string[] }) => l.services.includes('returns'))).toBe(true);
  });

  it('finds locations by postal code and country', async () => {
    const first = (await search({ lat: String(BERLIN.lat), lng: String(BERLIN.lng), limit: '1' })).json().data[0];
    const res = await search({ postal_code: first.address.postal_code, country_code: first.address.country_code, limit: '100' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((l: { pudo_location_uuid: string }) => l.pudo_location_uuid)).toContain(first.pudo_location_uuid);
  });

  it('answers an empty list far from any location', async () => {
    const res = await search({ lat: '0', lng: '0' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
  });

  it.each([
    [{ lat: '95', lng: '0' }, 'lat'],
    [{ lat: '52' }, 'lng'],
    [{}, 'lat'],
    [{ lat: '52', lng: '13', radius_meters: '50001' }, 'radius_meters'],
    [{ lat: '52', lng: '13', limit: '101' }, 'limit'],
    [{ lat: '52', lng: '13', carrier_reference: 'nope' }, 'carrier_reference'],
    [{ postal_code: '10117', country_code: 'XX' }, 'country_code'],
  ])('refuses %o naming %s', async (query, field) => {
    const res = await search(query as Record<string, string>);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors[field]).toBeDefined();
  });

  it('routes a booking to a location: confirmed in pudo_locations and as the collection point', async () => {
    const location = (await search({ lat: String(BERLIN.lat), lng: String(BERLIN.lng), limit: '1' })).json().data[0];
    const uuid = await createShipment(t, acct.token, bookableShipment('PUDO-1'));
    const res = await t.call(acct.token, 'POST', '/v5/booking/', {
      shipment_uuid: uuid,
      carrier_reference: 'sb',
      pudo_location_uuid: location.pudo_location_uuid,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.pudo_location_uuid).toBe(location.pudo_location_uuid);
    expect(res.json().data.pudo_locations[0]).toMatchObject({ pudo_location_id: location.pudo_location_id, address: location.address });
    const details = (await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_uuid: uuid })).json().data;
    expect(details.collection_point).toMatchObject({
      uuid: location.pudo_location_uuid,
      collection_point_identifier: location.pudo_location_id,
      status: 'active',
      lat: location.lat,
    });
    expect(details.collection_point.address.company).toBeUndefined();
  });
});
