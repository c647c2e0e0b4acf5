import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundingBox, boxContains, destinationPoint, haversineMeters } from '../../src/core/geo.js';

const berlin = { lat: 52.52, lng: 13.405 };
const paris = { lat: 48.8566, lng: 2.3522 };
const london = { lat: 51.5072, lng: -0.1276 };
const newYork = { lat: 40.7128, lng: -74.006 };
const singapore = { lat: 1.3521, lng: 103.8198 };

describe('haversineMeters', () => {
  it('matches known city distances', () => {
    expect(haversineMeters(berlin, paris) / 1000).toBeCloseTo(878, -1);
    expect(Math.abs(haversineMeters(berlin, paris) - 878_000)).toBeLessThan(3_000);
    expect(Math.abs(haversineMeters(london, paris) - 344_000)).toBeLessThan(3_000);
    expect(Math.abs(haversineMeters(london, newYork) - 5_570_000)).toBeLessThan(15_000);
    expect(Math.abs(haversineMeters(singapore, london) - 10_850_000)).toBeLessThan(30_000);
    expect(haversineMeters(berlin, berlin)).toBe(0);
    expect(haversineMeters(berlin, paris)).toBeCloseTo(haversineMeters(paris, berlin), 6);
  });

  it('agrees with destinationPoint', () => {
    const point = destinationPoint(berlin, 37, 12_345);
    expect(haversineMeters(berlin, point)).toBeCloseTo(12_345, 3);
    expect(destinationPoint({ lat: 0, lng: 179.99 }, 90, 10_000).lng).toBeLessThan(-179);
  });
});

describe('boundingBox', () => {
  // uniform reals from integers: fc.double crowds its values near zero, which would hide a box too narrow in longitude
  const uniform = (min: number, max: number) =>
    fc.integer({ min: 0, max: 1_000_000 }).map((step) => min + ((max - min) * step) / 1_000_000);
  const center = fc.record({ lat: uniform(-89.9, 89.9), lng: uniform(-180, 180) });

  it('contains every point within the radius', () => {
    fc.assert(
      fc.property(
        center,
        uniform(1, 2_000_000),
        uniform(0, 360),
        fc.oneof(fc.constant(1), uniform(0.9, 1), uniform(0, 1)),
        (origin, radius, bearing, share) => {
          const box = boundingBox(origin, radius);
          const point = destinationPoint(origin, bearing, radius * share);
          return boxContains(box, point);
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('is tight: points just beyond the radius along the axes fall outside', () => {
    const box = boundingBox(berlin, 5_000);
    for (const bearing of [0, 90, 180, 270]) {
      expect(boxContains(box, destinationPoint(berlin, bearing, 4_999))).toBe(true);
      expect(boxContains(box, destinationPoint(berlin, bearing, 5_050))).toBe(false);
    }
  });

  it('wraps at the antimeridian and opens up near the poles', () => {
    const fiji = boundingBox({ lat: -17.7, lng: 179.9 }, 50_000);
    expect(fiji.crossesAntimeridian).toBe(true);
    expect(fiji.minLng).toBeGreaterThan(fiji.maxLng);
    expect(boxContains(fiji, { lat: -17.7, lng: -179.9 })).toBe(true);
    expect(boxContains(fiji, { lat: -17.7, lng: 0 })).toBe(false);
    const pole = boundingBox({ lat: 89.9, lng: 10 }, 50_000);
    expect([pole.minLng, pole.maxLng, pole.maxLat]).toEqual([-180, 180, 90]);
    expect(() => boundingBox(berlin, -1)).toThrow(RangeError);
  });
});
