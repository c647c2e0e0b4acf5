/** A point on the Earth in decimal degrees (WGS 84). */
export interface LatLng {
  lat: number;
  lng: number;
}

/**
 * A latitude/longitude rectangle. When it crosses the antimeridian, `minLng > maxLng` and
 * `crossesAntimeridian` is true: a longitude matches if it is `>= minLng` OR `<= maxLng`.
 */
export interface BoundingBox {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
  crossesAntimeridian: boolean;
}

/** Mean Earth radius (IUGG), metres. */
export const EARTH_RADIUS_METERS = 6_371_008.8;

const PAD_DEGREES = 1e-9;

const toRadians = (degrees: number) => (degrees * Math.PI) / 180;
const toDegrees = (radians: number) => (radians * 180) / Math.PI;

/** Great-circle distance in metres (haversine formula on a sphere; within 0.5% of the ellipsoid). */
export function haversineMeters(a: LatLng, b: LatLng): number {
  const dLat = toRadians(b.lat - a.lat);
  const dLng = toRadians(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(a.lat)) * Math.cos(toRadians(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The smallest latitude/longitude rectangle holding every point within `radiusMeters` of `center`, for a
 * prefilter on indexed `lat`/`lng` columns before the exact {@link haversineMeters} check. Near a pole the
 * box spans all longitudes. Uses the tangent-point longitude span, which is exact on the sphere.
 */
export function boundingBox(center: LatLng, radiusMeters: number): BoundingBox {
  if (!(radiusMeters >= 0)) throw new RangeError('radiusMeters must be a non-negative number');
  const angular = radiusMeters / EARTH_RADIUS_METERS;
  const lat = toRadians(center.lat);
  const minLat = lat - angular - toRadians(PAD_DEGREES);
  const maxLat = lat + angular + toRadians(PAD_DEGREES);
  if (minLat <= -Math.PI / 2 || maxLat >= Math.PI / 2 || angular >= Math.PI / 2) {
    return {
      minLat: Math.max(-90, toDegrees(minLat)),
      maxLat: Math.min(90, toDegrees(maxLat)),
      minLng: -180,
      maxLng: 180,
      crossesAntimeridian: false,
    };
  }
  // padded by ~0.1 mm so that floating-point rounding never drops a point lying exactly on the circle
  const deltaLng = toDegrees(Math.asin(Math.sin(angular) / Math.cos(lat))) + PAD_DEGREES;
  let minLng = center.lng - deltaLng;
  let maxLng = center.lng + deltaLng;
  if (maxLng - minLng >= 360)
    return { minLat: toDegrees(minLat), maxLat: toDegrees(maxLat), minLng: -180, maxLng: 180, crossesAntimeridian: false };
  if (minLng < -180) minLng += 360;
  if (maxLng > 180) maxLng -= 360;
  return { minLat: toDegrees(minLat), maxLat: toDegrees(maxLat), minLng, maxLng, crossesAntimeridian: minLng > maxLng };
}

/** Whether `point` lies in `box` (edges included), honouring antimeridian crossing. */
export function boxContains(box: BoundingBox, point: LatLng): boolean {
  if (point.lat < box.minLat || point.lat > box.maxLat) return false;
  return box.crossesAntimeridian ? point.lng >= box.minLng || point.lng <= box.maxLng : point.lng >= box.minLng && point.lng <= box.maxLng;
}

/** The point `distanceMeters` from `origin` along the initial bearing `bearingDegrees` (0 = north, 90 = east). */
export function destinationPoint(origin: LatLng, bearingDegrees: number, distanceMeters: number): LatLng {
  const angular = distanceMeters / EARTH_RADIUS_METERS;
  const bearing = toRadians(bearingDegrees);
  const lat1 = toRadians(origin.lat);
  const lng1 = toRadians(origin.lng);
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(angular) + Math.cos(lat1) * Math.sin(angular) * Math.cos(bearing));
  const lng2 =
    lng1 + Math.atan2(Math.sin(bearing) * Math.sin(angular) * Math.cos(lat1), Math.cos(angular) - Math.sin(lat1) * Math.sin(lat2));
  return { lat: toDegrees(lat2), lng: ((toDegrees(lng2) + 540) % 360) - 180 };
}
