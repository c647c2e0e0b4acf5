import { boundingBox, boxContains, haversineMeters, type LatLng } from '../../core/geo.js';
import type { PudoLocation, PudoLocationRecord } from '../../core/pudo-location.js';

export interface PudoSearch extends LatLng {
  /** Search radius in metres. */
  radiusMeters: number;
  /** Most results to return, nearest first. */
  limit: number;
  /** Keep only locations offering every one of these services (e.g. `['drop_off']`). */
  services?: string[];
  /** Keep only locations of this carrier. */
  carrierId?: string;
}

/**
 * Nearest PUDO locations within a radius, nearest first, ties broken by `pudo_location_id`; each result
 * carries its `distance_meters`. The reference for the database search: the same bounding-box prefilter
 * (what an index on lat/lng answers) followed by the exact distance.
 */
export function searchPudoLocations(records: Iterable<PudoLocationRecord>, search: PudoSearch): PudoLocation[] {
  const box = boundingBox(search, search.radiusMeters);
  const found: Array<{ record: PudoLocationRecord; distance: number }> = [];
  for (const record of records) {
    if (!boxContains(box, record)) continue;
    if (search.carrierId && record.carrier_id !== search.carrierId) continue;
    if (search.services && !search.services.every((service) => record.services.includes(service))) continue;
    const distance = haversineMeters(search, record);
    if (distance <= search.radiusMeters) found.push({ record, distance });
  }
  found.sort((a, b) => a.distance - b.distance || a.record.pudo_location_id.localeCompare(b.record.pudo_location_id));
  return found.slice(0, Math.max(0, search.limit)).map(({ record, distance }) => ({ ...record, distance_meters: Math.round(distance) }));
}
