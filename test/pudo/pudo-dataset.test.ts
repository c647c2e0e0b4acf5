import { describe, expect, it } from 'vitest';
import { generatePudoDataset, SANDBOX_CARRIER_ID, sandboxPudoDataset } from '../../src/carriers/sandbox/pudo-dataset.js';
import { SANDBOX_PUDO_NAMESPACE, uuidV5 } from '../../src/carriers/sandbox/pudo-uuid.js';
import { haversineMeters } from '../../src/core/geo.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const CENTRES: Record<string, { lat: number; lng: number }> = {
  Berlin: { lat: 52.52, lng: 13.405 },
  Amsterdam: { lat: 52.3676, lng: 4.9041 },
  Paris: { lat: 48.8566, lng: 2.3522 },
  London: { lat: 51.5072, lng: -0.1276 },
  'New York': { lat: 40.7128, lng: -74.006 },
  Singapore: { lat: 1.3521, lng: 103.8198 },
};

describe('sandbox PUDO data set', () => {
  const dataset = sandboxPudoDataset();

  it('is deterministic for a seed and differs for another', () => {
    const again = generatePudoDataset();
    expect(JSON.stringify(again)).toBe(JSON.stringify(dataset));
    const other = generatePudoDataset({ seed: 'another', cities: ['BER'] });
    expect(other[0].pudo_location_uuid).toBe(dataset[0].pudo_location_uuid);
    expect(other[0].lat).not.toBe(dataset[0].lat);
  });

  it('has a few thousand locations across the six cities, each near its centre', () => {
    expect(dataset.length).toBeGreaterThanOrEqual(3_000);
    expect(dataset.length).toBeLessThanOrEqual(5_000);
    const perCity = new Map<string, number>();
    for (const location of dataset) {
      perCity.set(location.address.city, (perCity.get(location.address.city) ?? 0) + 1);
      expect(haversineMeters(CENTRES[location.address.city], location)).toBeLessThanOrEqual(14_001);
    }
    expect([...perCity.keys()].sort()).toEqual(Object.keys(CENTRES).sort());
    for (const count of perCity.values()) expect(count).toBeGreaterThanOrEqual(300);
    expect(generatePudoDataset({ scale: 0.1 }).length).toBe(370);
  });

  it('fills every field of the PudoLocation record', () => {
    const ids = new Set<string>();
    for (const location of dataset) {
      expect(location.pudo_location_uuid).toMatch(UUID);
      expect(location.uuid).toBe(location.pudo_location_uuid);
      expect(location.pudo_location_uuid).toBe(uuidV5(`sandbx:${location.pudo_location_id}`, SANDBOX_PUDO_NAMESPACE));
      expect(location.carrier_id).toBe(SANDBOX_CARRIER_ID);
      ids.add(location.pudo_location_id);
      const { address } = location;
      expect(address.location_types.length).toBeGreaterThan(0);
      expect(address.location_type).toBe(address.location_types[0]);
      expect(address.mapped_location_types).toEqual([address.mapped_location_type]);
      expect(['parcel_shop', 'parcel_locker', 'post_office']).toContain(address.mapped_location_type);
      for (const field of [
        'entity_reference',
        'address_name',
        'full',
        'line1',
        'street_name',
        'house_number',
        'postal_code',
        'city',
        'country',
      ] as const) {
        expect(address[field], field).toBeTruthy();
      }
      expect(address.country_code).toMatch(/^[A-Z]{2}$/);
      expect(location.services).toEqual(expect.arrayContaining(['drop_off', 'pick_up']));
      expect(location.opening_hours.length).toBeGreaterThan(0);
      for (const hours of location.opening_hours) expect([hours.open_hour, hours.close_hour].every((time) => TIME.test(time))).toBe(true);
      for (const cutoff of location.cutoff_hours) expect(cutoff.cutoff_at).toMatch(TIME);
      expect(location.operating_hours_calc.length).toBeGreaterThan(0);
      expect(location.operating_hours_calc[0].time_zone).toMatch(/^(Europe|America|Asia)\//);
      for (const period of location.closing_periods) expect(period.from_date <= period.to_date).toBe(true);
      expect(location.validity_period.from_date).toMatch(DATE);
      expect(Number.isNaN(Date.parse(location.updated_date))).toBe(false);
      expect(location).not.toHaveProperty('distance_meters');
    }
    expect(ids.size).toBe(dataset.length);
    expect(new Set(dataset.map((location) => location.services.join())).size).toBeGreaterThan(1);
    expect(dataset.some((location) => location.closing_periods.length > 0)).toBe(true);
  });
});
