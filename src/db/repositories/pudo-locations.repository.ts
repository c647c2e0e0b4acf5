import type { Insertable, Kysely, Selectable } from 'kysely';
import type { BoundingBox } from '../../domain/pudo/geo.js';
import type { PudoLocationRecord } from '../../domain/pudo/pudo-location.js';
import type { Database, PudoLocationsTable } from '../schema.js';

export type PudoLocationRow = Selectable<PudoLocationsTable>;

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

  /** Full records by id, for the nearest candidates only. */
  async recordsByIds(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('pudo_locations').select(['id', 'record']).where('id', 'in', ids).execute();
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
