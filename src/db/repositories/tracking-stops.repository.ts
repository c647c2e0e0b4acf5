import type { Kysely } from 'kysely';
import { PreparedQueryFamily } from '../prepared-query.js';
import type { Database } from '../schema.js';

/** A stop on record: the number's key and when it was stopped. */
export interface TrackingStop {
  tracking_key: string;
  stopped_at: string;
}

/**
 * The read of a poll batch, compiled once per number of keys: a batch holds the same number of numbers nearly
 * every time (a whole number of carrier calls), so the poll of an aggregator costs a lookup, not a query built
 * and compiled anew. Lists longer than READ_PART are read in parts, so the family stays small.
 */
const READ_PART = 100;
const stoppedAmongBySize = new PreparedQueryFamily<[number, string, ...string[]], TrackingStop>(READ_PART);

function stoppedAmongQuery(db: Kysely<Database>, accountId: number, carrierReference: string, keys: string[]) {
  return db
    .selectFrom('tracking_stops')
    .select(['tracking_key', 'stopped_at'])
    .where('account_id', '=', accountId)
    .where('carrier_reference', '=', carrierReference)
    .where('tracking_key', 'in', keys);
}

/**
 * Numbers an aggregator was told to stop following (`tracking_stops`), by account, carrier configuration and the
 * number as carrier detection reads it (`normalizeTrackingNumber`: spaces and dashes removed, upper case): the
 * callers pass that key. Written when a `carrier.stop` succeeds, read and removed by the poll that has the
 * aggregator track the number again.
 */
export class TrackingStopsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records a stop; a number stopped again keeps its one row, with the later time. */
  async record(accountId: number, carrierReference: string, trackingKey: string, stoppedAt: string): Promise<void> {
    await this.db
      .insertInto('tracking_stops')
      .values({ account_id: accountId, carrier_reference: carrierReference, tracking_key: trackingKey, stopped_at: stoppedAt })
      .onConflict((oc) =>
        oc
          .columns(['account_id', 'carrier_reference', 'tracking_key'])
          .doUpdateSet((eb) => ({ stopped_at: eb.ref('excluded.stopped_at') })),
      )
      .execute();
  }

  /** The stops on record among these keys of one configuration: one lookup on the primary key per 100 keys. */
  async stoppedAmong(accountId: number, carrierReference: string, trackingKeys: readonly string[]): Promise<TrackingStop[]> {
    const found: TrackingStop[] = [];
    for (let i = 0; i < trackingKeys.length; i += READ_PART) {
      const part = trackingKeys.slice(i, i + READ_PART);
      const prepared = stoppedAmongBySize.get(
        String(part.length),
        () =>
          (db, account, reference, ...keys) =>
            stoppedAmongQuery(db, account, reference, keys),
      );
      found.push(
        ...(prepared
          ? await prepared.execute(this.db, accountId, carrierReference, ...part)
          : await stoppedAmongQuery(this.db, accountId, carrierReference, part).execute()),
      );
    }
    return found;
  }

  /**
   * Removes these stops once the aggregator tracks their numbers again: each only as it was read, so that a stop
   * recorded again meanwhile (a later `carrier.stop`) is kept.
   */
  async remove(accountId: number, carrierReference: string, stops: readonly TrackingStop[]): Promise<void> {
    if (stops.length === 0) return;
    await this.db
      .deleteFrom('tracking_stops')
      .where('account_id', '=', accountId)
      .where('carrier_reference', '=', carrierReference)
      .where((eb) =>
        eb.or(stops.map((stop) => eb.and([eb('tracking_key', '=', stop.tracking_key), eb('stopped_at', '=', stop.stopped_at)]))),
      )
      .execute();
  }
}
