import { hasPudo, searchesPudo } from '../../carriers/booking.js';
import type { CarrierRegistry } from '../../carriers/registry.js';
import type { Clock } from '../../clock.js';
import type { CarrierWait } from '../../core/carrier-wait.js';
import { type BoundingBox, boundingBox, EARTH_RADIUS_METERS, haversineMeters, type LatLng } from '../../core/geo.js';
import { PostalCentroidIndex } from '../../core/postal-centroids.js';
import type { PudoLocation, PudoLocationRecord } from '../../core/pudo-location.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { PudoQuery } from '../../schemas/pudo.schemas.js';
import type { Caller } from '../auth.service.js';
import type { CarrierConfigsService } from '../carrier-configs.service.js';
import { FieldErrorCollector, ValidationError } from '../errors.js';
import { countryByCode } from '../reference-data.js';
import { CarrierPudoSearch } from './carrier-pudo-search.js';
import { searchPudoLocations } from './pudo-search.js';

export const DEFAULT_RADIUS_METERS = 5_000;

/**
 * Pick-up/drop-off locations. A carrier whose every location is known in advance (the sandbox) has them
 * copied into an indexed table once, and a search reads only the bounding box of its circle before computing
 * exact distances; a carrier that answers searches itself (DHL, UPS) is asked, through a cache.
 */
export class PudoService {
  private readonly synced = new Map<string, Promise<void>>();
  private readonly centroids = new Map<string, PostalCentroidIndex>();
  private readonly live: CarrierPudoSearch;

  constructor(
    private readonly repos: Repositories,
    private readonly carriers: CarrierRegistry,
    private readonly carrierConfigs: CarrierConfigsService,
    clock: Clock,
  ) {
    this.live = new CarrierPudoSearch(repos, clock);
  }

  async search(caller: Caller, query: PudoQuery, wait: CarrierWait): Promise<PudoLocation[]> {
    const errors = new FieldErrorCollector();
    const config = await this.carrierConfigs.resolve(caller.accountId, query.carrier_reference);
    const adapter = config ? this.carriers.get(config.carrier_id) : undefined;
    if (!config) errors.add(['carrier_reference'], `carrier_reference "${query.carrier_reference}" is not defined in this account.`);
    const searches = adapter && searchesPudo(adapter) && (adapter.supportsPudo?.(config!.settings) ?? true);
    if (config && !searches && !(adapter && hasPudo(adapter)))
      errors.add(['carrier_reference'], 'This carrier has no pick-up/drop-off locations, or this configuration cannot search them.');
    const hasPoint = query.lat !== undefined || query.lng !== undefined;
    if (hasPoint && (query.lat === undefined || query.lng === undefined))
      errors.add([query.lat === undefined ? 'lat' : 'lng'], 'Give lat and lng together.');
    if (!hasPoint && !(query.postal_code && query.country_code)) {
      errors.add(['lat'], 'Give lat and lng, or postal_code and country_code.');
    }
    if (query.country_code && !countryByCode(query.country_code))
      errors.add(['country_code'], 'Enter a valid ISO 3166-1 alpha-2 country code.');
    errors.throwIfAny();
    const carrierId = config!.carrier_id;
    const radius = query.radius_meters ?? DEFAULT_RADIUS_METERS;
    const limit = query.limit ?? 20;
    const services = query.services
      ? query.services
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined;
    if (searches && adapter && searchesPudo(adapter)) {
      return this.live.search({
        carrierId,
        adapter,
        settings: config!.settings,
        center: hasPoint ? { lat: query.lat as number, lng: query.lng as number } : null,
        // A point search passes the country too when given: some carriers (FedEx) search within one country.
        ...(hasPoint
          ? query.country_code
            ? { country_code: query.country_code }
            : {}
          : { postal_code: query.postal_code, country_code: query.country_code }),
        radius,
        limit,
        ...(services ? { services } : {}),
        wait,
      });
    }
    await this.ensureSynced(carrierId);

    let center = hasPoint ? { lat: query.lat as number, lng: query.lng as number } : null;
    if (!center) {
      center = this.centroids.get(carrierId)?.lookup(query.country_code as string, query.postal_code as string) ?? null;
      if (!center) throw ValidationError.at(['postal_code'], 'No locations are known near this postal code; search by lat and lng.');
    }
    const box = boundingBox(center, radius);
    const found =
      (await this.nearestRecords(carrierId, box, center, radius, limit, services)) ??
      (await this.recordsInBox(carrierId, box, center, radius, limit, services));
    // The reference search puts them in final order: distance, then id, with distances rounded.
    return searchPudoLocations(found, { lat: center.lat, lng: center.lng, radiusMeters: radius, limit, services });
  }

  /**
   * The records of the `limit` nearest locations, with the database ordering the box's candidates by flat-earth
   * distance and sending back a few more than asked. Exact distances are computed here; the answer is used only
   * when it is provably the same as from every candidate: the flat-earth distance is within `slack` of the true
   * one, so a location not sent back is at least `(1 - slack) ×` the last one sent away. Otherwise (a services
   * filter left too few, near the poles, very large radius, or the box crosses the antimeridian) null.
   */
  private async nearestRecords(
    carrierId: string,
    box: BoundingBox,
    center: LatLng,
    radius: number,
    limit: number,
    services: string[] | undefined,
  ): Promise<PudoLocationRecord[] | null> {
    const angular = radius / EARTH_RADIUS_METERS;
    const latitude = (Math.abs(center.lat) * Math.PI) / 180;
    if (box.crossesAntimeridian || angular > 0.02 || latitude + angular > (80 * Math.PI) / 180) return null;
    const slack = Math.tan(latitude + angular) * angular + 0.005;
    const cos = Math.cos((center.lat * Math.PI) / 180);
    const fetch = limit * 2 + 10;
    const rows = await this.repos.pudo.nearestInBox(carrierId, box, center, cos * cos, fetch);
    const candidates = rows
      .map((c) => ({ id: c.id, distance: haversineMeters(center, c) }))
      .filter((c) => c.distance <= radius)
      .sort((a, b) => a.distance - b.distance);
    const records = await this.repos.pudo.recordsByIds(candidates.slice(0, services ? candidates.length : limit).map((c) => c.id));
    const found: PudoLocationRecord[] = [];
    let last = 0;
    for (const candidate of candidates) {
      if (found.length >= limit) break;
      const text = records.get(candidate.id);
      if (!text) continue;
      const record = JSON.parse(text) as PudoLocationRecord;
      if (services && !services.every((service) => record.services.includes(service))) continue;
      found.push(record);
      last = candidate.distance;
    }
    if (rows.length < fetch) return found;
    // Every location not sent back is at least this far away.
    const lastSent = rows[rows.length - 1];
    const unsentAtLeast =
      EARTH_RADIUS_METERS *
      Math.hypot(((lastSent.lat - center.lat) * Math.PI) / 180, ((lastSent.lng - center.lng) * Math.PI * cos) / 180) *
      (1 - slack);
    if (unsentAtLeast > radius) return found;
    // A tie at the last place sorts by id in the reference order, so the boundary must be strictly nearer.
    if (found.length >= limit && last < unsentAtLeast) return found;
    return null;
  }

  /** Every candidate of the box, exact distances, nearest first; whole records read in slices until enough match. */
  private async recordsInBox(
    carrierId: string,
    box: BoundingBox,
    center: LatLng,
    radius: number,
    limit: number,
    services: string[] | undefined,
  ): Promise<PudoLocationRecord[]> {
    const candidates = (await this.repos.pudo.inBox(carrierId, box))
      .map((c) => ({ id: c.id, distance: haversineMeters(center, c) }))
      .filter((c) => c.distance <= radius)
      .sort((a, b) => a.distance - b.distance);
    const found: PudoLocationRecord[] = [];
    // With a services filter some candidates drop out, so records are read in slices until enough remain.
    for (let start = 0; start < candidates.length && found.length < limit; ) {
      const slice = candidates.slice(start, start + (services ? Math.max(limit * 2, 50) : limit - found.length));
      start += slice.length;
      const records = await this.repos.pudo.recordsByIds(slice.map((c) => c.id));
      for (const candidate of slice) {
        const text = records.get(candidate.id);
        if (!text) continue;
        const record = JSON.parse(text) as PudoLocationRecord;
        if (!services || services.every((service) => record.services.includes(service))) found.push(record);
      }
    }
    return found;
  }

  /** One location of a carrier by uuid (for a carrier searched live: one a search found this week), or null. */
  async find(carrierId: string, uuid: string): Promise<PudoLocation | null> {
    const adapter = this.carriers.get(carrierId);
    if (adapter && searchesPudo(adapter)) return this.live.find(carrierId, uuid);
    await this.ensureSynced(carrierId);
    const row = await this.repos.pudo.findByUuid(carrierId, uuid);
    return row ? { ...(JSON.parse(row.record) as PudoLocationRecord), distance_meters: 0 } : null;
  }

  /** Copies a carrier's locations into the table the first time they are needed. */
  ensureSynced(carrierId: string): Promise<void> {
    let pending = this.synced.get(carrierId);
    if (!pending) {
      pending = this.sync(carrierId).catch((error) => {
        this.synced.delete(carrierId);
        throw error;
      });
      this.synced.set(carrierId, pending);
    }
    return pending;
  }

  private async sync(carrierId: string): Promise<void> {
    const adapter = this.carriers.get(carrierId);
    if (!adapter || !hasPudo(adapter)) return;
    const records = adapter.pudoLocations();
    this.centroids.set(carrierId, new PostalCentroidIndex(records));
    if ((await this.repos.pudo.countForCarrier(carrierId)) >= records.length) return;
    await this.repos.transaction((repos) => repos.pudo.insertRecords(carrierId, records));
  }
}
