import { createHash } from 'node:crypto';
import type { CarrierPudoLocation, PudoSearchCapable } from '../../carriers/booking.js';
import type { CarrierSettings } from '../../carriers/carrier.js';
import type { Clock } from '../../clock.js';
import type { CarrierWait } from '../../core/carrier-wait.js';
import { haversineMeters, type LatLng } from '../../core/geo.js';
import type { PudoLocation, PudoLocationRecord } from '../../core/pudo-location.js';
import type { Repositories } from '../../db/repositories/index.js';
import { DomainError, ValidationError } from '../errors.js';

/** How long a carrier's answer to a search is reused: opening hours and closures change by the day. */
export const PUDO_QUERY_TTL_SECONDS = 3_600;
/** How long a location found by a search can be booked by its uuid without searching again. */
export const PUDO_RECORD_TTL_SECONDS = 7 * 86_400;
/** The longest a search waits for the carrier. */
const SEARCH_TIMEOUT_MS = 10_000;

export interface CarrierSearch {
  carrierId: string;
  adapter: PudoSearchCapable;
  settings: CarrierSettings;
  /** A point, or a postal code (and country) with no point. */
  center: LatLng | null;
  postal_code?: string;
  country_code?: string;
  radius: number;
  limit: number;
  services?: string[];
  /** The request's carrier waits: the search waits at most SEARCH_TIMEOUT_MS, and never past the request's end. */
  wait: CarrierWait;
}

/** The carrier could not answer a pick-up point search; nothing is wrong with the request. */
export class PudoCarrierUnavailableError extends DomainError {
  constructor(message: string) {
    super('unavailable', message);
  }
}

/**
 * Pick-up point search for carriers that answer searches themselves (DHL Location Finder, UPS Locator).
 * Answers are cached in the database (shared by every process) for an hour, and each location found for a
 * week, so that a booking can name it by `pudo_location_uuid`.
 */
export class CarrierPudoSearch {
  constructor(
    private readonly repos: Repositories,
    private readonly clock: Clock,
  ) {}

  async search(search: CarrierSearch): Promise<PudoLocation[]> {
    const found = await this.locations(search);
    const center = search.center ?? middleOf(found);
    const wanted = search.services;
    return found
      .map((location) => {
        const { distance_meters: carrierDistance, ...record } = location;
        const distance = search.center || carrierDistance === undefined ? haversineMeters(center, record) : carrierDistance;
        return { record, distance };
      })
      .filter(({ record, distance }) => distance <= search.radius && (!wanted || wanted.every((s) => record.services.includes(s))))
      .sort((a, b) => a.distance - b.distance || a.record.pudo_location_id.localeCompare(b.record.pudo_location_id))
      .slice(0, search.limit)
      .map(({ record, distance }) => ({ ...record, distance_meters: Math.round(distance) }));
  }

  /** A location a search of this carrier found within the last week, or null. */
  async find(carrierId: string, uuid: string): Promise<PudoLocation | null> {
    const value = await this.repos.pudoCache.get(recordKey(carrierId, uuid), this.clock.now().toISOString());
    return value ? { ...(JSON.parse(value) as PudoLocationRecord), distance_meters: 0 } : null;
  }

  private async locations(search: CarrierSearch): Promise<CarrierPudoLocation[]> {
    const now = this.clock.now();
    const key = queryKey(search);
    const cached = await this.repos.pudoCache.get(key, now.toISOString());
    if (cached) return JSON.parse(cached) as CarrierPudoLocation[];

    const answer = await search.adapter.searchPudo(
      {
        ...(search.center ? { lat: search.center.lat, lng: search.center.lng } : {}),
        ...(search.postal_code ? { postal_code: search.postal_code } : {}),
        ...(search.country_code ? { country_code: search.country_code } : {}),
        radius_meters: search.radius,
        limit: search.limit,
        ...(search.services ? { services: search.services } : {}),
      },
      search.settings,
      { now, signal: search.wait.signal(SEARCH_TIMEOUT_MS) },
    );
    if (answer.status === 'error') {
      if (answer.retryable) throw new PudoCarrierUnavailableError(`The carrier did not answer the search (${answer.message}). Try again.`);
      throw ValidationError.at(['carrier_reference'], `The carrier refused the search: ${answer.message}`);
    }
    const at = (seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();
    await this.repos.pudoCache.put([
      { key, carrierId: search.carrierId, value: JSON.stringify(answer.locations), expiresAt: at(PUDO_QUERY_TTL_SECONDS) },
      ...answer.locations.map((location) => {
        const { distance_meters: _distance, ...record } = location;
        return {
          key: recordKey(search.carrierId, record.pudo_location_uuid),
          carrierId: search.carrierId,
          value: JSON.stringify(record),
          expiresAt: at(PUDO_RECORD_TTL_SECONDS),
        };
      }),
    ]);
    return answer.locations;
  }
}

function recordKey(carrierId: string, uuid: string): string {
  return `l:${carrierId}:${uuid}`;
}

/** Searches that differ by less than ~11 m, or only in case and spaces of the postal code, share an answer. */
function queryKey(search: CarrierSearch): string {
  const normal = {
    lat: search.center ? search.center.lat.toFixed(4) : null,
    lng: search.center ? search.center.lng.toFixed(4) : null,
    postal_code: search.postal_code?.replace(/\s+/g, '').toUpperCase() ?? null,
    country_code: search.country_code?.toUpperCase() ?? null,
    radius: search.radius,
    limit: search.limit,
    services: search.services ? [...search.services].sort() : null,
  };
  return `q:${search.carrierId}:${createHash('sha256').update(JSON.stringify(normal)).digest('base64url')}`;
}

/** The middle of what a carrier found near a postal code: where distances are measured from without a point. */
function middleOf(locations: readonly LatLng[]): LatLng {
  if (locations.length === 0) return { lat: 0, lng: 0 };
  const sum = locations.reduce((acc, l) => ({ lat: acc.lat + l.lat, lng: acc.lng + l.lng }), { lat: 0, lng: 0 });
  return { lat: sum.lat / locations.length, lng: sum.lng / locations.length };
}
