import { describe, expect, it } from 'vitest';
import { EU_COUNTRIES } from '../../../src/core/eu-countries.js';
import {
  CARRIER_TRANSIT,
  defaultTransit,
  GENERIC_TRANSIT,
  LATE_SHARE,
  laneKindOf,
  pmfOfPromise,
} from '../../../src/domain/delivery/transit-defaults.js';

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** The smallest t with P(T ≤ t) ≥ p. */
function quantile(pmf: readonly number[], p: number): number {
  let cumulative = 0;
  for (let t = 0; t < pmf.length; t++) {
    cumulative += pmf[t];
    if (cumulative >= p - 1e-12) return t;
  }
  return pmf.length - 1;
}

describe('laneKindOf', () => {
  it('tells domestic, intra-EU and other international lanes apart', () => {
    expect(laneKindOf('DE', 'DE')).toBe('domestic');
    expect(laneKindOf('de', 'DE ')).toBe('domestic');
    expect(laneKindOf('DE', 'FR')).toBe('eu');
    expect(laneKindOf('GB', 'FR')).toBe('international');
    expect(laneKindOf('CH', 'DE')).toBe('international');
    expect(laneKindOf('US', 'CA')).toBe('international');
    expect(laneKindOf(null, 'DE')).toBe('international');
  });

  it('knows the 27 EU member states', () => {
    expect(EU_COUNTRIES.size).toBe(27);
    expect(EU_COUNTRIES.has('HR')).toBe(true);
    expect(EU_COUNTRIES.has('GB')).toBe(false);
  });
});

describe('pmfOfPromise', () => {
  it('puts most on the usual day, 5% past the slowest, and sums to 1', () => {
    const pmf = pmfOfPromise({ min: 1, likely: 1, max: 2 });
    expect(pmf).toHaveLength(5);
    expect(pmf[0]).toBe(0);
    expect(pmf[1]).toBeCloseTo(0.76, 12);
    expect(pmf[2]).toBeCloseTo(0.19, 12);
    expect(pmf[3] + pmf[4]).toBeCloseTo(LATE_SHARE, 12);
    expect(sum(pmf)).toBeCloseTo(1, 12);
  });

  it('is symmetric around the usual day inside the promise', () => {
    const pmf = pmfOfPromise({ min: 3, likely: 5, max: 7 });
    expect(pmf[4]).toBeCloseTo(pmf[6], 12);
    expect(pmf[3]).toBeCloseTo(pmf[7], 12);
    expect(pmf[5]).toBeGreaterThan(pmf[4]);
  });

  it('refuses a promise out of order', () => {
    expect(() => pmfOfPromise({ min: 2, likely: 1, max: 3 })).toThrow(RangeError);
    expect(() => pmfOfPromise({ min: 1, likely: 1.5, max: 3 })).toThrow(RangeError);
  });
});

describe('defaultTransit', () => {
  it('takes DHL Paket’s “1–2 Werktage” within Germany', () => {
    const { pmf, source } = defaultTransit('dhlpde', 'V01PAK', 'DE', 'DE');
    expect(quantile(pmf, 0.5)).toBe(1);
    expect(quantile(pmf, 0.9)).toBe(2);
    expect(source).toMatch(/Werktag/);
  });

  it('follows the service where the carrier publishes one per service', () => {
    expect(quantile(defaultTransit('royalm', 'Tracked 24', 'GB', 'GB').pmf, 0.5)).toBe(1);
    expect(quantile(defaultTransit('royalm', 'Tracked 48', 'GB', 'GB').pmf, 0.5)).toBe(2);
    expect(quantile(defaultTransit('uspsus', 'Priority Mail Express', 'US', 'US').pmf, 0.5)).toBe(1);
    expect(quantile(defaultTransit('uspsus', 'Priority Mail', 'US', 'US').pmf, 0.5)).toBe(2);
    const ground = defaultTransit('uspsus', 'USPS Ground Advantage', 'US', 'US');
    expect(quantile(ground.pmf, 0.5)).toBe(3);
    expect(ground.pmf.slice(0, 2)).toEqual([0, 0]);
    expect(quantile(defaultTransit('upsglb', '03', 'US', 'US').pmf, 0.5)).toBe(3);
    expect(quantile(defaultTransit('upsglb', 'UPS Next Day Air', 'US', 'US').pmf, 0.9)).toBe(1);
  });

  it('falls back to the lane’s generic default', () => {
    expect(defaultTransit('sandbx', null, 'DE', 'DE').source).toBe(GENERIC_TRANSIT.domestic.source);
    expect(defaultTransit('dhlpde', 'V53WPAK', 'DE', 'FR').source).toBe(GENERIC_TRANSIT.eu.source);
    expect(defaultTransit(null, null, 'US', 'JP').source).toBe(GENERIC_TRANSIT.international.source);
    expect(defaultTransit('uspsus', 'Some new product', 'US', 'US').source).toBe(GENERIC_TRANSIT.domestic.source);
    const international = defaultTransit(null, null, 'DE', 'US').pmf;
    expect(quantile(international, 0.5)).toBe(5);
    expect(quantile(international, 0.01)).toBe(3);
  });

  it('uses a carrier’s lane row whatever the service when no service row applies', () => {
    expect(defaultTransit('postnl', 'anything', 'NL', 'NL').source).toMatch(/next working day/);
    expect(defaultTransit('lapost', null, 'FR', 'DE').source).toMatch(/3 à 8/);
  });

  it('gives every caller its own array', () => {
    const first = defaultTransit('dhlpde', null, 'DE', 'DE');
    first.pmf[1] = 0;
    expect(defaultTransit('dhlpde', null, 'DE', 'DE').pmf[1]).toBeCloseTo(0.76, 12);
  });

  it('has valid promises with a source in every row', () => {
    for (const promise of [...Object.values(GENERIC_TRANSIT), ...CARRIER_TRANSIT.flatMap((row) => Object.values(row.lanes))]) {
      expect(sum(pmfOfPromise(promise))).toBeCloseTo(1, 12);
      expect(promise.source).toMatch(/https?:\/\//);
    }
  });
});
