import type { LatLng } from './geo.js';

/** Something with a postal address and coordinates, e.g. a PudoLocationRecord. */
export interface PostalPoint {
  lat: number;
  lng: number;
  address: { postal_code: string; country_code: string };
}

/** An approximate centroid of a postal code: the mean position of the points found in it. */
export interface PostalCentroid extends LatLng {
  /** How many points it was computed from. */
  points: number;
  /** Whether the full code matched ('exact') or only its district ('district', e.g. `1016` of `1016 GD`, `EC1A` of `EC1A 1BB`). */
  precision: 'exact' | 'district';
}

/** Upper case without spaces or dashes: `ec1a 1bb` → `EC1A1BB`, `1016 gd` → `1016GD`. */
export function normalizePostalCode(postalCode: string): string {
  return postalCode.toUpperCase().replace(/[\s-]+/g, '');
}

/**
 * The district part of a normalized postal code, for countries whose codes have one: the Dutch
 * four digits, the British outward code (all but the last three characters). Null elsewhere.
 */
export function postalDistrict(countryCode: string, normalized: string): string | null {
  const country = countryCode.toUpperCase();
  if (country === 'NL' && /^\d{4}[A-Z]{2}$/.test(normalized)) return normalized.slice(0, 4);
  if (country === 'GB' && normalized.length >= 5) return normalized.slice(0, -3);
  return null;
}

interface Sum {
  lat: number;
  lng: number;
  points: number;
}

/**
 * Postal code → approximate centroid, learnt from a set of located addresses (the sandbox PUDO data set),
 * so that a search by `postal_code + country_code` can become a search around a point.
 */
export class PostalCentroidIndex {
  private readonly exact = new Map<string, Sum>();
  private readonly districts = new Map<string, Sum>();

  constructor(points: Iterable<PostalPoint>) {
    for (const point of points) {
      const country = point.address.country_code.toUpperCase();
      const code = normalizePostalCode(point.address.postal_code);
      add(this.exact, `${country}:${code}`, point);
      const district = postalDistrict(country, code);
      if (district) add(this.districts, `${country}:${district}`, point);
    }
  }

  /** The centroid of `postalCode` in `countryCode`; falls back to its district; null when unknown. */
  lookup(countryCode: string, postalCode: string): PostalCentroid | null {
    const country = countryCode.toUpperCase();
    const code = normalizePostalCode(postalCode);
    const exact = this.exact.get(`${country}:${code}`);
    if (exact) return mean(exact, 'exact');
    const district = postalDistrict(country, code) ?? code;
    const sum = this.districts.get(`${country}:${district}`);
    return sum ? mean(sum, 'district') : null;
  }

  /** Number of distinct postal codes known. */
  get size(): number {
    return this.exact.size;
  }
}

function add(map: Map<string, Sum>, key: string, point: LatLng): void {
  const sum = map.get(key) ?? { lat: 0, lng: 0, points: 0 };
  sum.lat += point.lat;
  sum.lng += point.lng;
  sum.points += 1;
  map.set(key, sum);
}

function mean(sum: Sum, precision: PostalCentroid['precision']): PostalCentroid {
  return { lat: sum.lat / sum.points, lng: sum.lng / sum.points, points: sum.points, precision };
}
