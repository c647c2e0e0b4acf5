import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_CITIES } from '../../src/carriers/sandbox/pudo-cities.js';
import { generatePudoDataset } from '../../src/carriers/sandbox/pudo-dataset.js';
import { searchPudoLocations } from '../../src/domain/pudo/pudo-search.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

/**
 * The indexed search (the database orders the box's candidates by flat-earth distance and sends back a
 * few) must answer exactly what the reference search over every record answers: same locations, same order,
 * same distances, for dense and sparse spots, small and large radii, small limits and services filters.
 */
describe('PUDO search through the API equals the reference search over every record', () => {
  let t: TestApp;
  let acct: TestAccount;
  const dataset = generatePudoDataset();
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ features: ['booking'], carriers: [{ carrier_reference: 'sb', booking: ['outbound'] }] });
  });
  afterAll(() => t.close());

  it('for random points around every city', async () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const cases: Array<{ lat: number; lng: number; radius: number; limit: number; services?: string }> = [];
    for (const city of SANDBOX_CITIES) {
      for (let i = 0; i < 6; i++) {
        cases.push({
          lat: city.lat + (random() - 0.5) * 0.2,
          lng: city.lng + (random() - 0.5) * 0.3,
          radius: [300, 1_000, 5_000, 20_000, 50_000][i % 5],
          limit: [1, 3, 20, 100][i % 4],
          services: i % 3 === 2 ? 'returns' : undefined,
        });
      }
    }
    let nonEmpty = 0;
    for (const c of cases) {
      const query: Record<string, string> = {
        carrier_reference: 'sb',
        lat: String(c.lat),
        lng: String(c.lng),
        radius_meters: String(c.radius),
        limit: String(c.limit),
      };
      if (c.services) query.services = c.services;
      const res = await t.call(acct.token, 'GET', '/v5/pudo-locations/', undefined, query);
      expect(res.statusCode, res.body).toBe(200);
      const got = (res.json().data as Array<{ pudo_location_uuid: string; distance_meters: number }>).map((l) => [
        l.pudo_location_uuid,
        l.distance_meters,
      ]);
      const expected = searchPudoLocations(dataset, {
        lat: c.lat,
        lng: c.lng,
        radiusMeters: c.radius,
        limit: c.limit,
        services: c.services ? [c.services] : undefined,
      }).map((l) => [l.pudo_location_uuid, l.distance_meters]);
      expect(got, JSON.stringify(c)).toEqual(expected);
      if (got.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(cases.length / 2);
  });
});
