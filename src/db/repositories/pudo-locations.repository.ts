import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { BoundingBox } from '../../core/geo.js';
import type { PudoLocationRecord } from '../../core/pudo-location.js';
import { executeForIds, PreparedQuery, PreparedQueryFamily } from '../prepared-query.js';
import type { Database, PudoLocationsTable } from '../schema.js';

export type PudoLocationRow = Selectable<PudoLocationsTable>;

/**
 * Positions inside a box (not crossing the antimeridian), nearest first by the flat-earth squared distance
 * `Δlat² + Δlng² · lngScale` (lngScale = cos² of the centre's latitude), at most `limit`.
 */
const nearestInBox = new PreparedQuery(
  (
    db,
    carrierId: string,
    minLat: number,
    maxLat: number,
    minLng: number,
    maxLng: number,
    lat: number,
    lng: number,
    lngScale: number,
    limit: number,
  ) =>
    db
      .selectFrom('pudo_locations')
      .select(['id', 'lat', 'lng'])
      .where('carrier_id', '=', carrierId)
      .where('lat', '>=', minLat)
      .where('lat', '<=', maxLat)
      .where('lng', '>=', minLng)
      .where('lng', '<=', maxLng)
      .orderBy(sql`(lat - ${lat}) * (lat - ${lat}) + (lng - ${lng}) * (lng - ${lng}) * ${lngScale}`)
      .orderBy('id')
      .limit(limit),
);
/** Records by id, by how many are asked for (a search asks for its limit, mostly 20). */
const recordsByIds = new PreparedQueryFamily<number[], { id: number; record: string }>(110);

export class PudoLocationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async countForCarrier(carrierId: string): Promise<number> {
    const row = await this.db
      .selectFrom('pudo_locations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('carrier_id', '=', carrierId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Stores a carrier's locations (the position and postal code as indexed columns, the record as JSON). */
  async insertRecords(carrierId: string, records: readonly PudoLocationRecord[]): Promise<void> {
    await this.insertMany(
      records.map((record) => ({
        carrier_id: carrierId,
        pudo_location_uuid: record.pudo_location_uuid,
        pudo_location_id: record.pudo_location_id,
        lat: record.lat,
        lng: record.lng,
        postal_code: record.address.postal_code ?? null,
        country_code: record.address.country_code ?? null,
        record: JSON.stringify(record),
        updated_at: record.updated_date,
      })),
    );
  }

  async insertMany(rows: Insertable<PudoLocationsTable>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 100) {
      await this.db
        .insertInto('pudo_locations')
        .values(rows.slice(i, i + 100))
        .onConflict((oc) => oc.column('pudo_location_uuid').doNothing())
        .execute();
    }
  }

  /**
   * Candidates inside a bounding box: only id and position, read from the (carrier, lat, lng) index, so a
   * dense city costs no record reads; the exact distance is the caller's.
   */
  inBox(carrierId: string, box: BoundingBox): Promise<Array<{ id: number; lat: number; lng: number }>> {
    let query = this.db
      .selectFrom('pudo_locations')
      .select(['id', 'lat', 'lng'])
      .where('carrier_id', '=', carrierId)
      .where('lat', '>=', box.minLat)
      .where('lat', '<=', box.maxLat);
    query = box.crossesAntimeridian
      ? query.where((eb) => eb.or([eb('lng', '>=', box.minLng), eb('lng', '<=', box.maxLng)]))
      : query.where('lng', '>=', box.minLng).where('lng', '<=', box.maxLng);
    return query.execute();
  }

  /**
   * The `limit` candidates of a box nearest to `center` by flat-earth distance (see nearestInBox), from the
   * (carrier, lat, lng) index; the database sorts, so a dense city sends back only these. Boxes crossing the
   * antimeridian are for `inBox`.
   */
  nearestInBox(
    carrierId: string,
    box: BoundingBox,
    center: { lat: number; lng: number },
    lngScale: number,
    limit: number,
  ): Promise<Array<{ id: number; lat: number; lng: number }>> {
    if (box.crossesAntimeridian) throw new Error('nearestInBox: the box crosses the antimeridian');
    return nearestInBox.execute(
      this.db,
      carrierId,
      box.minLat,
      box.maxLat,
      box.minLng,
      box.maxLng,
      center.lat,
      center.lng,
      lngScale,
      limit,
    );
  }

  /** Full records by id, for the nearest candidates only. */
  async recordsByIds(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await executeForIds(this.db, recordsByIds, ids, (db, list) =>
      db.selectFrom('pudo_locations').select(['id', 'record']).where('id', 'in', list),
    );
    return new Map(rows.map((row) => [row.id, row.record]));
  }

  findByUuid(carrierId: string, uuid: string): Promise<PudoLocationRow | undefined> {
    return this.db
      .selectFrom('pudo_locations')
      .selectAll()
      .where('carrier_id', '=', carrierId)
      .where('pudo_location_uuid', '=', uuid)
      .executeTakeFirst();
  }

  /** Locations with this postal code (exact), for placing a postal-code search. */
  byPostalCode(carrierId: string, countryCode: string, postalCode: string): Promise<PudoLocationRow[]> {
    return this.db
      .selectFrom('pudo_locations')
      .selectAll()
      .where('carrier_id', '=', carrierId)
      .where('country_code', '=', countryCode)
      .where('postal_code', '=', postalCode)
      .execute();
  }
}
