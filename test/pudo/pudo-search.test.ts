import { describe, expect, it } from 'vitest';
import { sandboxPostalCentroids, sandboxPudoDataset } from '../../src/carriers/sandbox/pudo-dataset.js';
import { haversineMeters } from '../../src/core/geo.js';
import { normalizePostalCode, PostalCentroidIndex } from '../../src/core/postal-centroids.js';
import { searchPudoLocations } from '../../src/domain/pudo/pudo-search.js';

describe('searchPudoLocations', () => {
  const dataset = sandboxPudoDataset();
  const berlin = { lat: 52.52, lng: 13.405 };

  it('returns the nearest locations within the radius, nearest first, with their distance', () => {
    const results = searchPudoLocations(dataset, { ...berlin, radiusMeters: 2_000, limit: 10 });
    expect(results.length).toBe(10);
    const bruteForce = dataset
      .map((location) => ({ id: location.pudo_location_id, distance: haversineMeters(berlin, location) }))
      .filter((entry) => entry.distance <= 2_000)
      .sort((a, b) => a.distance - b.distance)
      .slice(0, 10);
    expect(results.map((location) => location.pudo_location_id)).toEqual(bruteForce.map((entry) => entry.id));
    expect(results.map((location) => location.distance_meters)).toEqual(bruteForce.map((entry) => Math.round(entry.distance)));
  });

  it('filters by services and returns nothing far from every city', () => {
    const returns = searchPudoLocations(dataset, { ...berlin, radiusMeters: 5_000, limit: 500, services: ['returns'] });
    expect(returns.length).toBeGreaterThan(0);
    expect(returns.every((location) => location.services.includes('returns'))).toBe(true);
    expect(searchPudoLocations(dataset, { lat: 0, lng: 0, radiusMeters: 50_000, limit: 10 })).toEqual([]);
  });
});

describe('postal code centroids', () => {
  const index = sandboxPostalCentroids();
  const dataset = sandboxPudoDataset();

  it('places each postal code of the data set near the locations that have it', () => {
    for (const location of dataset.slice(0, 400)) {
      const centroid = index.lookup(location.address.country_code, location.address.postal_code);
      expect(centroid?.precision).toBe('exact');
      // a district of a 6x6 grid is at most a few kilometres across
      expect(haversineMeters(centroid!, location)).toBeLessThan(8_000);
    }
  });

  it('normalizes codes and falls back to the district', () => {
    const london = dataset.find((location) => location.address.country_code === 'GB')!;
    const outward = london.address.postal_code.split(' ')[0];
    expect(index.lookup('gb', london.address.postal_code.toLowerCase().replace(' ', ''))?.precision).toBe('exact');
    expect(index.lookup('GB', `${outward} 9ZZ`)?.precision).toBe('district');
    const amsterdam = dataset.find((location) => location.address.country_code === 'NL')!;
    expect(index.lookup('NL', amsterdam.address.postal_code.slice(0, 4))?.precision).toBe('district');
    expect(index.lookup('DE', '99999')).toBeNull();
    expect(index.lookup('FR', dataset.find((location) => location.address.city === 'Berlin')!.address.postal_code)).toBeNull();
    expect(normalizePostalCode(' ec1a-1bb ')).toBe('EC1A1BB');
  });

  it('averages the points of a code', () => {
    const small = new PostalCentroidIndex([
      { lat: 10, lng: 20, address: { postal_code: '1011 AB', country_code: 'NL' } },
      { lat: 12, lng: 22, address: { postal_code: '1011AB', country_code: 'nl' } },
    ]);
    expect(small.lookup('NL', '1011 ab')).toEqual({ lat: 11, lng: 21, points: 2, precision: 'exact' });
    expect(small.size).toBe(1);
  });
});
