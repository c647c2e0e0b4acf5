import { type Insertable, type Kysely, NoResultError, type RawBuilder, type Selectable, sql, type Updateable } from 'kysely';
import type { DialectName } from '../connection.js';
import {
  executeForIds,
  flattenRows,
  isBindable,
  PreparedQuery,
  PreparedQueryFamily,
  preparedForRow,
  rowsFromArgs,
  writeById,
} from '../prepared-query.js';
import type { Database, ShipmentsTable } from '../schema.js';
import { trackingNumberKeyOf, trackingNumberKeySql } from '../tracking-number-key.js';
import type { TrackingEventRow } from './tracking-events.repository.js';

/**
 * Shipments whose tracking number is exactly `trackingNumber`, found (beside their account) by the number's key
 * that `shipments_account_tracking_key` (0022) indexes: equal numbers have equal keys, so the key narrows the
 * lookup to an index range and the exact comparison keeps the answer as it was.
 */
export function withTrackingNumber(trackingNumber: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.raw(trackingNumberKeySql('shipments.tracking_number'))} = ${trackingNumberKeyOf(trackingNumber)} and shipments.tracking_number = ${trackingNumber}`;
}

export type ShipmentRow = Selectable<ShipmentsTable>;

/**
 * What a poll claim returns of each shipment: all the poller and the application of an answer read of the row
 * as claimed (the answer is applied to the row as read again under the lock). Not the whole row: a claim
 * returns thousands of rows a minute, and each column read back costs a string.
 */
const POLL_CLAIM_COLUMNS = [
  'id',
  'account_id',
  'shipment_uuid',
  'tracking_number',
  'carrier_reference',
  'status',
  'phase_key',
  'tracking_started_at',
  'last_tracking_update_at',
  'poll_deferred_since',
  'poll_failures',
  'tracking_fingerprint',
  'pod_file',
] as const satisfies ReadonlyArray<keyof ShipmentRow>;
export type PollClaim = Pick<ShipmentRow, (typeof POLL_CLAIM_COLUMNS)[number]>;
const pollClaimColumns = sql.raw(POLL_CLAIM_COLUMNS.join(', '));

/** A carrier configuration with polls due, and when the oldest of them fell due. */
export interface DueConfiguration {
  account_id: number;
  carrier_reference: string;
  due_at: string;
}

/** What a walk over the configurations found: those with polls due, and how many configurations it stepped through. */
export interface ConfigurationWalk {
  due: DueConfiguration[];
  walked: number;
}

/**
 * What applying an answer that changes nothing the shipment shows reads of the row under the lock (most polls:
 * the carrier's data as stored, or a failed call). The whole row is read for the others.
 */
const POLLED_COLUMNS = [...POLL_CLAIM_COLUMNS, 'updated_at', 'push_subscribed_until', 'tracking_digest'] as const satisfies ReadonlyArray<
  keyof ShipmentRow
>;
export type PolledShipment = Pick<ShipmentRow, (typeof POLLED_COLUMNS)[number]>;
const polledColumns = sql.raw(POLLED_COLUMNS.join(', '));

/**
 * The columns of an event that shipment details and lists show. Reading only these skips the de-duplication
 * key, times and bookkeeping columns: with ten events per shipment, making their strings is most of the read.
 */
const SHOWN_EVENT_COLUMNS = [
  'id',
  'shipment_row_id',
  'event',
  'event_key',
  'phase_key',
  'time_text',
  'timezone',
  'carrier_name',
  'location',
  'additional_info',
] as const;
export type ShownEventRow = Pick<TrackingEventRow, (typeof SHOWN_EVENT_COLUMNS)[number]>;

const shownEvents = new PreparedQuery((db, shipmentRowId: number) =>
  db
    .selectFrom('tracking_events')
    .select(SHOWN_EVENT_COLUMNS)
    .where('shipment_row_id', '=', shipmentRowId)
    .orderBy('time_utc', 'desc')
    .orderBy('sequence', 'desc')
    .orderBy('id', 'desc'),
);
/** The same for a page of shipments, by page size (a list asks for its limit, mostly 20). */
const shownEventsOf = new PreparedQueryFamily<number[], ShownEventRow>(101);

const findById = new PreparedQuery((db, id: number) => db.selectFrom('shipments').selectAll().where('id', '=', id));
// `for no key update`, the lock an update of the row takes: it keeps out other writers of the row, not the
// writers of rows that refer to it (events, facts), so a holder never waits on them while they wait on it.
const findByIdForUpdate = new PreparedQuery((db, id: number) =>
  db.selectFrom('shipments').selectAll().where('id', '=', id).forNoKeyUpdate(),
);
const findByUuid = new PreparedQuery((db, accountId: number, shipmentUuid: string) =>
  db.selectFrom('shipments').selectAll().where('account_id', '=', accountId).where('shipment_uuid', '=', shipmentUuid),
);
/**
 * What a kept rendering is checked by, and what the rest of an answer needs besides it (the proof of delivery's
 * link): read from the row's index entry and leading columns and the narrow `shipment_versions`, not the body.
 */
const HEAD_COLUMNS = [
  'shipments.id',
  'shipments.shipment_id',
  'shipments.shipment_uuid',
  'shipments.pod_file',
  'shipment_versions.version',
] as const;
export type ShipmentHead = Pick<ShipmentRow, 'id' | 'shipment_id' | 'shipment_uuid' | 'pod_file'> & { version: number };
/**
 * What a list page's kept renderings are checked by: the row id and the version, read from the account's index
 * and the narrow `shipment_versions` alone (a list page has no proof-of-delivery link).
 */
export type ShipmentStamp = Pick<ShipmentHead, 'id' | 'version'>;
const STAMP_COLUMNS = ['shipments.id', 'shipment_versions.version'] as const;
/** The heads of an account's shipments, to be narrowed by the caller. */
function headsOf(db: Kysely<Database>, accountId: number) {
  return db
    .selectFrom('shipments')
    .innerJoin('shipment_versions', 'shipment_versions.shipment_row_id', 'shipments.id')
    .select(HEAD_COLUMNS)
    .where('shipments.account_id', '=', accountId);
}
/** The stamps of an account's shipments, newest first. */
function stampsOf(db: Kysely<Database>, accountId: number) {
  return db
    .selectFrom('shipments')
    .innerJoin('shipment_versions', 'shipment_versions.shipment_row_id', 'shipments.id')
    .select(STAMP_COLUMNS)
    .where('shipments.account_id', '=', accountId)
    .orderBy('shipments.id', 'desc');
}
const headByUuid = new PreparedQuery((db, accountId: number, shipmentUuid: string) =>
  headsOf(db, accountId).where('shipments.shipment_uuid', '=', shipmentUuid),
);
const headByShipmentId = new PreparedQuery((db, accountId: number, shipmentId: string) =>
  headsOf(db, accountId).where('shipments.shipment_id', '=', shipmentId),
);
/** The stamps of an unfiltered list page, newest first (the common page: compiled once). */
const pageStamps = new PreparedQuery((db, accountId: number, limit: number) => stampsOf(db, accountId).limit(limit));
const pageStampsBefore = new PreparedQuery((db, accountId: number, beforeId: number, limit: number) =>
  stampsOf(db, accountId).where('shipments.id', '<', beforeId).limit(limit),
);
/** A shipment's version alone (what a rendering made at a write is kept at). */
const versionById = new PreparedQuery((db, id: number) =>
  db.selectFrom('shipment_versions').select('version').where('shipment_row_id', '=', id),
);
/** Updates by the columns they set: the poller writes the same few shapes for every shipment. */
const updates = new PreparedQueryFamily<unknown[], ShipmentRow>();
/** The same without the row read back. */
const writes = new PreparedQueryFamily<unknown[], never>();
const findByShipmentId = new PreparedQuery((db, accountId: number, shipmentId: string) =>
  db.selectFrom('shipments').selectAll().where('account_id', '=', accountId).where('shipment_id', '=', shipmentId),
);
const findByTrackingPageReference = new PreparedQuery((db, reference: string) =>
  db.selectFrom('shipments').selectAll().where('tracking_page_reference', '=', reference),
);

/** A shipment's tags as the tag filter finds them. */
const tagsOf = new PreparedQuery((db, shipmentRowId: number) =>
  db.selectFrom('shipment_tags').select('tag').where('shipment_row_id', '=', shipmentRowId),
);
/**
 * Single-row inserts by columns: every create writes the same ones. On PostgreSQL the id comes back by `returning`;
 * on SQLite the insert returns nothing and its id is the row id SQLite gave it (see `insertVersion`).
 */
const insertOneQueries = new PreparedQueryFamily<unknown[], { id: number }>(8);
const insertOneWithoutIdQueries = new PreparedQueryFamily<unknown[], unknown>(8);
/**
 * A new shipment's version row (0026_shipment_versions), written on the embedded database by the insert's code:
 * 0030_shipment_version_insert_without_trigger dropped the trigger that wrote it there. With the trigger, or with
 * `returning`, the insert is a statement that may write several rows, for which SQLite copies each page the insert
 * changes (about 13) to a statement journal: without them SQLite's part of a create costs about 60,000 instructions
 * (5% of the create) fewer (docs/performance.md). `or ignore`: the previous release wrote the row beside the
 * trigger in the same way, and a database migrated by hand may still hold the trigger.
 */
const insertVersion = new PreparedQuery((db, id: number) =>
  db.insertInto('shipment_versions').orIgnore().values({ shipment_row_id: id, version: 0 }),
);
/** What a new shipment row holds in the columns an insert may leave out: the defaults of migrations 0002 onwards. */
/**
 * The shipment row `id` as the database holds it after inserting `row`: the columns it leaves out (or sets to undefined,
 * which the insert leaves out) at the table's defaults (test/shipments/shipments.insert.test.ts compares a created
 * row with the row read back). Written out column by column: `{ ...defaults, ...row }` cost about 20 µs a create,
 * as V8 (Node 20) adds each member a second spread brings on a slow path, about a microsecond each
 * (docs/performance.md).
 */
export function storedShipment(row: Insertable<ShipmentsTable>, id: number): ShipmentRow {
  return {
    id,
    account_id: row.account_id,
    shipment_uuid: row.shipment_uuid,
    shipment_id: row.shipment_id,
    tracking_number: row.tracking_number ?? null,
    carrier_reference: row.carrier_reference ?? null,
    carrier_id: row.carrier_id ?? null,
    order_row_id: row.order_row_id ?? null,
    status: row.status,
    phase_key: row.phase_key ?? null,
    source: row.source,
    shipment_type: row.shipment_type ?? null,
    tracking_page_reference: row.tracking_page_reference,
    body: row.body,
    created_at: row.created_at,
    updated_at: row.updated_at,
    tracking_started_at: row.tracking_started_at ?? null,
    next_poll_at: row.next_poll_at ?? null,
    last_tracking_update_at: row.last_tracking_update_at ?? null,
    poll_deferred_since: row.poll_deferred_since ?? null,
    tracking_digest: row.tracking_digest ?? null,
    tracking_fingerprint: row.tracking_fingerprint ?? null,
    push_subscribed_until: row.push_subscribed_until ?? null,
    push_retry_at: row.push_retry_at ?? null,
    poll_failures: row.poll_failures ?? 0,
    pod_file: row.pod_file ?? null,
    collection_point: row.collection_point ?? null,
    webhook_sequence: row.webhook_sequence ?? 0,
  };
}
/** Multi-row tag inserts by row count (a create writes a few tags). */
const tagInserts = new PreparedQueryFamily<unknown[], never>(16);
/** Multi-row inserts by row count and columns: imports write full chunks, so one or two shapes recur. */
const insertManyQueries = new PreparedQueryFamily<unknown[], { id: number; shipment_uuid: string }>(16);
/** Rows per multi-row statement: well under both dialects' bound-parameter limits (20 columns × 200). */
const INSERT_CHUNK = 200;

/**
 * The order in which a credential's scarce daily calls go to due shipments, as bounds computed for the moment
 * of the claim (src/domain/shipments/poll-priority.ts decides them): rank 0 deferred since at or before the
 * bound of its phase, 1 in an urgent phase, 2 changed after `changedAfter`, 3 the rest; then the longest
 * deferred, then the row id. Times compare as the ISO texts the service writes.
 */
export interface PollRanking {
  /** [phase, deferred at or before this: starving] for each phase with a bound of its own. */
  starvingBefore: Array<[string, string]>;
  /** The bound of every other phase (and of none). */
  otherwiseStarvingBefore: string;
  urgentPhases: string[];
  changedAfter: string;
}

/** How many spread times a bulk reschedule uses at most (one statement shape each). */
const MAX_SPREAD = 16;

export interface ShipmentListFilter {
  createdFrom?: string;
  createdTo?: string;
  updatedFrom?: string;
  updatedTo?: string;
  shipmentId?: string;
  orderId?: string;
  trackingNumber?: string;
  carrierReference?: string;
  status?: string;
  tag?: string;
}

export class ShipmentsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /**
   * The carrier configurations (account and carrier_reference) with a poll due at `now`, the longest due
   * first, and when their oldest due poll fell due: at most `limit` of them; and how many configurations with
   * tracked shipments there are (the steps the walk took). Read from the index of each configuration's next
   * polls alone, one step per configuration with tracked shipments whatever their number (a loose scan: each
   * step seeks the first entry past the last configuration, which is that configuration's oldest next poll).
   * A step looks for the account's next reference, or else the next account: SQLite does not use a row value
   * compared with the step before as an index range. Configurations removed since their shipments were
   * scheduled are found too, so that their tracking can be ended.
   */
  async dueConfigurations(now: string, limit: number): Promise<ConfigurationWalk> {
    const result = await sql<DueConfiguration & { walked: number | string }>`
      with recursive configurations(account_id, carrier_reference, due_at) as (
        select account_id, carrier_reference, next_poll_at from (
          select account_id, carrier_reference, next_poll_at from shipments
          where next_poll_at is not null and carrier_reference is not null
          order by account_id, carrier_reference, next_poll_at limit 1
        ) first_configuration
        union all
        select s.account_id, s.carrier_reference, s.next_poll_at
        from configurations c join shipments s on s.id = coalesce(
          (select n.id from shipments n
           where n.next_poll_at is not null and n.account_id = c.account_id and n.carrier_reference > c.carrier_reference
           order by n.account_id, n.carrier_reference, n.next_poll_at limit 1),
          (select n.id from shipments n
           where n.next_poll_at is not null and n.carrier_reference is not null and n.account_id > c.account_id
           order by n.account_id, n.carrier_reference, n.next_poll_at limit 1)
        )
      )
      select d.account_id, d.carrier_reference, d.due_at, w.walked
      from (select count(*) as walked from configurations) w
      left join (
        select account_id, carrier_reference, due_at from configurations
        where due_at <= ${now} order by due_at limit ${limit}
      ) d on true
      order by d.due_at`.execute(this.db);
    const due = result.rows.filter((row) => row.account_id !== null);
    return {
      due: due.map(({ account_id, carrier_reference, due_at }) => ({ account_id, carrier_reference, due_at })),
      walked: Number(result.rows[0]?.walked ?? 0),
    };
  }

  /**
   * The due polls of one carrier configuration, oldest due first, at most `limit`: read, not written (the
   * worker holding the configuration's lease, PollLeasesRepository, is the only one to poll them). Cost
   * follows the number read (index on the configuration's next polls).
   */
  async duePollsOf(accountId: number, carrierReference: string, now: string, limit: number): Promise<PollClaim[]> {
    if (limit <= 0) return [];
    const result = await sql<PollClaim>`
      select ${pollClaimColumns} from shipments
      where account_id = ${accountId} and carrier_reference = ${carrierReference} and next_poll_at <= ${now}
      order by next_poll_at limit ${limit}`.execute(this.db);
    return result.rows;
  }

  /** How many polls of one carrier configuration are due (counted up to `limit`: enough to compare with a budget). */
  async countDuePollsOf(accountId: number, carrierReference: string, now: string, limit: number): Promise<number> {
    if (limit <= 0) return 0;
    const result = await sql<{ n: number | string }>`
      select count(*) as n from (
        select 1 from shipments
        where account_id = ${accountId} and carrier_reference = ${carrierReference} and next_poll_at <= ${now}
        limit ${limit}
      ) due`.execute(this.db);
    return Number(result.rows[0]?.n ?? 0);
  }

  /**
   * The `limit` most urgent due polls of one carrier configuration by `ranking`, across all of its due
   * shipments (a credential whose daily calls cannot cover them spends them on these), read as `duePollsOf`
   * reads. The rows come back in no particular order.
   */
  async rankedDuePollsOf(
    accountId: number,
    carrierReference: string,
    now: string,
    limit: number,
    ranking: PollRanking,
  ): Promise<PollClaim[]> {
    if (limit <= 0) return [];
    const starving = sql`case phase_key ${sql.join(
      ranking.starvingBefore.map(([phase, before]) => sql`when ${phase} then ${before}`),
      sql` `,
    )} else ${ranking.otherwiseStarvingBefore} end`;
    const rank = sql`case
      when poll_deferred_since is not null and poll_deferred_since <= ${starving} then 0
      when phase_key in (${sql.join(ranking.urgentPhases)}) then 1
      when last_tracking_update_at is not null and last_tracking_update_at > ${ranking.changedAfter} then 2
      else 3 end`;
    const result = await sql<PollClaim>`
      select ${pollClaimColumns} from shipments
      where account_id = ${accountId} and carrier_reference = ${carrierReference} and next_poll_at <= ${now}
      order by ${rank}, coalesce(poll_deferred_since, '~'), id limit ${limit}`.execute(this.db);
    return result.rows;
  }

  /**
   * Puts off every due poll of one carrier configuration (its credential has no calls left today) but those of
   * `polled` (being polled with the last calls): the next poll at one of `times` by row id (spread so that they
   * do not all fall due at once), and when the first deferral happened kept; at most `limit` of them. Returns
   * how many were put off.
   */
  async deferDuePollsOf(
    accountId: number,
    carrierReference: string,
    now: string,
    times: readonly string[],
    limit: number,
    polled: readonly number[] = [],
  ): Promise<number> {
    const except = polled.length > 0 ? sql`and id not in (${this.idList(polled)})` : sql``;
    const result = await sql`
      update shipments
      set next_poll_at = ${spreadById(times)}, poll_deferred_since = coalesce(poll_deferred_since, ${now})
      where id in (
        select id from shipments
        where account_id = ${accountId} and carrier_reference = ${carrierReference} and next_poll_at <= ${now} ${except}
        limit ${limit}
      )`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  /**
   * Sets the next poll of these shipments to one of `times` by row id (a claim handed back, polls held back or
   * put off, tracking ended with `[null]`), in one statement; with `deferredSince`, records when the first
   * deferral happened unless one is recorded.
   */
  async reschedulePolls(
    ids: readonly number[],
    times: ReadonlyArray<string | null>,
    options: { deferredSince?: string } = {},
  ): Promise<void> {
    if (ids.length === 0) return;
    const deferred =
      options.deferredSince === undefined ? sql`` : sql`, poll_deferred_since = coalesce(poll_deferred_since, ${options.deferredSince})`;
    await sql`update shipments set next_poll_at = ${spreadById(times)}${deferred} where id in (${this.idList(ids)})`.execute(this.db);
  }

  /** A list of row ids as one bound parameter (one statement whatever the count). */
  private idList(ids: readonly number[]) {
    return this.dialect === 'postgres'
      ? sql`select unnest(${[...ids]}::bigint[])`
      : sql`select value from json_each(${JSON.stringify(ids)})`;
  }

  /**
   * Claims tracked shipments of these carriers whose push subscription is missing or ends before
   * `renewBefore`, by moving `push_retry_at` to the end of a lease: a worker that dies leaves them due again
   * when it ends, and two workers never claim the same shipment.
   */
  async claimDueSubscriptions(
    carrierIds: readonly string[],
    options: { now: string; renewBefore: string; leaseUntil: string; limit: number },
  ): Promise<ShipmentRow[]> {
    if (carrierIds.length === 0) return [];
    const lock = this.dialect === 'postgres' ? sql`for update skip locked` : sql``;
    const result = await sql<ShipmentRow>`
      update shipments set push_retry_at = ${options.leaseUntil}
      where id in (
        select id from shipments
        where carrier_id in (${sql.join([...carrierIds])})
          and tracking_number is not null and carrier_reference is not null and next_poll_at is not null
          and status not in ('delivered', 'expired', 'inactive')
          and (push_subscribed_until is null or push_subscribed_until <= ${options.renewBefore})
          and (push_retry_at is null or push_retry_at <= ${options.now})
        order by id limit ${options.limit} ${lock}
      )
      returning *`.execute(this.db);
    return result.rows;
  }

  /** Records a subscription's outcome for these shipments: until when it runs (or unchanged), and when to ask again. */
  async setPushSubscription(
    ids: readonly number[],
    changes: { push_subscribed_until?: string; push_retry_at: string | null },
  ): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('shipments')
      .set(changes)
      .where('id', 'in', [...ids])
      .execute();
  }

  /**
   * Locks one shipment row for the rest of the transaction against other writers of it (PostgreSQL; SQLite
   * transactions are serial). Rows referring to it (events, delivery facts) may still be written meanwhile.
   */
  async lock(id: number): Promise<ShipmentRow | undefined> {
    return (this.dialect === 'postgres' ? findByIdForUpdate : findById).executeTakeFirst(this.db, id);
  }

  /**
   * A row read in this write transaction, as no other writer can change it before the transaction ends: read again
   * under its lock on PostgreSQL (undefined if it was deleted meanwhile); on SQLite, where write transactions run one
   * at a time, the row itself.
   */
  async locked(row: ShipmentRow): Promise<ShipmentRow | undefined> {
    return this.dialect === 'postgres' ? findByIdForUpdate.executeTakeFirst(this.db, row.id) : row;
  }

  /** `lock` for many shipments in one statement (in id order on PostgreSQL, so two lockers never deadlock). */
  lockMany(ids: readonly number[]): Promise<Map<number, ShipmentRow>> {
    return this.lockRows<ShipmentRow>(sql`*`, ids);
  }

  /**
   * Locks the rows of polled shipments as `lockMany` does, reading in full only those in `whole` and the
   * columns of `PolledShipment` of the others. Returns each row once, whole or not.
   */
  async lockPolled(ids: readonly number[], whole: ReadonlySet<number>): Promise<Map<number, PolledShipment | ShipmentRow>> {
    // On PostgreSQL every row is locked by the first statement, in id order (two lockers never deadlock).
    const partly = this.dialect === 'postgres' || whole.size === 0 ? ids : ids.filter((id) => !whole.has(id));
    const rows: Map<number, PolledShipment | ShipmentRow> = await this.lockRows<PolledShipment>(polledColumns, partly);
    if (whole.size > 0) for (const [id, row] of await this.lockMany([...whole])) rows.set(id, row);
    return rows;
  }

  /** Reads `columns` of these rows, locking them on PostgreSQL, in one statement whatever the count (prepared once). */
  private async lockRows<R extends { id: number }>(columns: RawBuilder<unknown>, ids: readonly number[]): Promise<Map<number, R>> {
    const rows = new Map<number, R>();
    if (ids.length === 0) return rows;
    const query =
      this.dialect === 'postgres'
        ? sql<R>`select ${columns} from shipments where id in (${this.idList(ids)}) order by id for no key update`
        : sql<R>`select ${columns} from shipments where id in (${this.idList(ids)})`;
    for (const row of (await query.execute(this.db)).rows) rows.set(row.id, row);
    return rows;
  }

  /**
   * Inserts a shipment and answers its row as stored: the row given with its id and the columns it left to the
   * table's defaults. Only the id is read back; a row read back whole (its body above all) costs more than the
   * insert's own work.
   */
  async insert(row: Insertable<ShipmentsTable>): Promise<ShipmentRow> {
    if (this.dialect === 'sqlite') return this.insertOnSqlite(row);
    const build = (db: Kysely<Database>, values: Insertable<ShipmentsTable>) => db.insertInto('shipments').values(values).returning('id');
    const prepared = preparedForRow(insertOneQueries, row, build);
    const inserted = prepared
      ? await prepared.query.executeTakeFirst(this.db, ...prepared.values)
      : await build(this.db, row).executeTakeFirst();
    if (!inserted) throw new Error('insert into shipments returned no row');
    return storedShipment(row, inserted.id);
  }

  /**
   * `insert` on SQLite: the insert without `returning`, and the version row, in the caller's transaction or one of
   * their own, so that a shipment is never written without its version row (no process would find it).
   */
  private async insertOnSqlite(row: Insertable<ShipmentsTable>): Promise<ShipmentRow> {
    if (!this.db.isTransaction) return this.inOwnTransaction((repository) => repository.insertOnSqlite(row));
    const build = (db: Kysely<Database>, values: Insertable<ShipmentsTable>) => db.insertInto('shipments').values(values);
    const prepared = preparedForRow(insertOneWithoutIdQueries, row, build);
    const id = prepared
      ? (await prepared.query.executeWrite(this.db, ...prepared.values)).lastInsertRowid
      : Number((await build(this.db, row).executeTakeFirstOrThrow()).insertId);
    await insertVersion.execute(this.db, id);
    return storedShipment(row, id);
  }

  /** Runs `work` on this repository in a transaction of its own. */
  private inOwnTransaction<T>(work: (repository: ShipmentsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new ShipmentsRepository(trx, this.dialect)));
  }

  async update(id: number, changes: Updateable<ShipmentsTable>): Promise<ShipmentRow> {
    const columns = Object.keys(changes) as Array<keyof ShipmentsTable>;
    const values = columns.map((column) => changes[column]);
    const prepared =
      columns.length > 0 && values.every(isBindable)
        ? updates.get(columns.join(','), () => (db, rowId, ...set) => {
            const assignments = Object.fromEntries(columns.map((column, i) => [column, set[i]])) as Updateable<ShipmentsTable>;
            return db
              .updateTable('shipments')
              .set(assignments)
              .where('id', '=', rowId as number)
              .returningAll();
          })
        : null;
    if (!prepared) {
      return this.db.updateTable('shipments').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    }
    const row = await prepared.executeTakeFirst(this.db, id, ...values);
    if (!row) throw new NoResultError(this.db.updateTable('shipments').set(changes).where('id', '=', id).toOperationNode());
    return row;
  }

  findById(id: number): Promise<ShipmentRow | undefined> {
    return findById.executeTakeFirst(this.db, id);
  }

  /** Rows by id, without locking them (those deleted meanwhile are missing). */
  async findByIds(ids: readonly number[]): Promise<ShipmentRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('shipments')
      .selectAll()
      .where('id', 'in', [...ids])
      .execute();
  }

  /** `update` without reading the row back, for a caller that knows what it wrote (a row it holds locked). */
  async write(id: number, changes: Updateable<ShipmentsTable>): Promise<void> {
    await writeById(this.db, writes, 'shipments', id, changes);
  }

  /**
   * `write` of the row `current` (held locked) with only the columns whose value `changes` moves. SQLite rewrites
   * the entry of every index on a column an UPDATE sets, even to the value it has: an update that leaves the
   * tracking number, carrier and order as they were changes the row's B-tree alone, and its commit writes fewer
   * pages. The row as committed is `{ ...current, ...changes }` either way.
   */
  async writeChanges(current: ShipmentRow, changes: Updateable<ShipmentsTable>): Promise<void> {
    const moved: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(changes)) {
      if (value !== current[column as keyof ShipmentRow]) moved[column] = value;
    }
    await this.write(current.id, moved as Updateable<ShipmentsTable>);
  }

  findByUuid(accountId: number, shipmentUuid: string): Promise<ShipmentRow | undefined> {
    return findByUuid.executeTakeFirst(this.db, accountId, shipmentUuid);
  }

  findByShipmentId(accountId: number, shipmentId: string): Promise<ShipmentRow | undefined> {
    return findByShipmentId.executeTakeFirst(this.db, accountId, shipmentId);
  }

  /** Whether a shipment of the account still has polls of this number with this configuration ahead. */
  async tracks(accountId: number, carrierReference: string, trackingNumber: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('shipments')
      .select('id')
      .where('account_id', '=', accountId)
      .where(withTrackingNumber(trackingNumber))
      .where('carrier_reference', '=', carrierReference)
      .where('next_poll_at', 'is not', null)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The shipment a public tracking page shows (the reference is unique and unguessable; no account is known). */
  findByTrackingPageReference(reference: string): Promise<ShipmentRow | undefined> {
    return findByTrackingPageReference.executeTakeFirst(this.db, reference);
  }

  /**
   * Inserts many new shipments in multi-row statements (imports); returns their ids and uuids in the
   * order given. All or nothing: a unique violation fails the whole call (a caller holding no transaction gets one).
   */
  async insertMany(rows: Insertable<ShipmentsTable>[]): Promise<Array<{ id: number; shipment_uuid: string }>> {
    if (!this.db.isTransaction) return this.inOwnTransaction((repository) => repository.insertMany(rows));
    const out: Array<{ id: number; shipment_uuid: string }> = [];
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = rows.slice(i, i + INSERT_CHUNK);
      const { columns, values, bindable } = flattenRows(chunk);
      const prepared = bindable
        ? insertManyQueries.forColumns(
            chunk.length,
            columns,
            () =>
              (db, ...args) =>
                db
                  .insertInto('shipments')
                  .values(rowsFromArgs(chunk.length, columns, args))
                  .returning(['id', 'shipment_uuid']),
          )
        : null;
      const inserted = prepared
        ? await prepared.execute(this.db, ...values)
        : await this.db.insertInto('shipments').values(chunk).returning(['id', 'shipment_uuid']).execute();
      // On SQLite the version rows are the repository's to write (see `insertVersion`).
      if (this.dialect === 'sqlite' && inserted.length > 0) {
        const versions = inserted.map(({ id }) => ({ shipment_row_id: id, version: 0 }));
        await this.db.insertInto('shipment_versions').orIgnore().values(versions).execute();
      }
      // RETURNING gives no order guarantee: match rows by their uuid.
      const byUuid = new Map(inserted.map((row) => [row.shipment_uuid, row]));
      for (const row of chunk) out.push(byUuid.get(row.shipment_uuid) as { id: number; shipment_uuid: string });
    }
    return out;
  }

  /** Which of these shipment_ids the account already has. */
  async existingShipmentIds(accountId: number, shipmentIds: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < shipmentIds.length; i += INSERT_CHUNK) {
      const rows = await this.db
        .selectFrom('shipments')
        .select('shipment_id')
        .where('account_id', '=', accountId)
        .where('shipment_id', 'in', shipmentIds.slice(i, i + INSERT_CHUNK))
        .execute();
      for (const row of rows) found.add(row.shipment_id);
    }
    return found;
  }

  /** Tags of new shipments, in multi-row statements. */
  async insertTags(rows: Array<{ shipment_row_id: number; account_id: number; tag: string }>): Promise<void> {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK * 4) {
      const chunk = rows.slice(i, i + INSERT_CHUNK * 4);
      const { columns, values, bindable } = flattenRows(chunk);
      // A create's few tags share one prepared statement per count; an import's chunks are built each time.
      const prepared =
        bindable && chunk.length <= 16
          ? tagInserts.forColumns(
              chunk.length,
              columns,
              () =>
                (db, ...args) =>
                  db.insertInto('shipment_tags').values(rowsFromArgs(chunk.length, columns, args)),
            )
          : null;
      if (prepared) await prepared.execute(this.db, ...values);
      else await this.db.insertInto('shipment_tags').values(chunk).execute();
    }
  }

  /** Sets a shipment's tags to `tags`; tags sent back as they are (a client sending the whole shipment) write nothing. */
  async replaceTags(accountId: number, shipmentRowId: number, tags: string[]): Promise<void> {
    const unique = [...new Set(tags)];
    const held = await tagsOf.execute(this.db, shipmentRowId);
    if (held.length === unique.length && held.every((row) => unique.includes(row.tag))) return;
    await this.db.deleteFrom('shipment_tags').where('shipment_row_id', '=', shipmentRowId).execute();
    if (unique.length > 0) {
      await this.db
        .insertInto('shipment_tags')
        .values(unique.map((tag) => ({ shipment_row_id: shipmentRowId, account_id: accountId, tag })))
        .execute();
    }
  }

  /** A shipment's events as details show them, newest first by normalized time, then by the carrier's own order. */
  shownEvents(shipmentRowId: number): Promise<ShownEventRow[]> {
    return shownEvents.execute(this.db, shipmentRowId);
  }

  /** The shown events of several shipments at once (list pages), each shipment's newest first. */
  async shownEventsOf(shipmentRowIds: number[]): Promise<Map<number, ShownEventRow[]>> {
    const byShipment = new Map<number, ShownEventRow[]>(shipmentRowIds.map((id) => [id, []]));
    if (shipmentRowIds.length === 0) return byShipment;
    const rows = await executeForIds(this.db, shownEventsOf, shipmentRowIds, (db, ids) =>
      db
        .selectFrom('tracking_events')
        .select(SHOWN_EVENT_COLUMNS)
        .where('shipment_row_id', 'in', ids)
        .orderBy('shipment_row_id')
        .orderBy('time_utc', 'desc')
        .orderBy('sequence', 'desc')
        .orderBy('id', 'desc'),
    );
    for (const row of rows) byShipment.get(row.shipment_row_id)?.push(row);
    return byShipment;
  }

  /** Newest first, keyset-paginated on the row id: stable while new shipments arrive. */
  list(accountId: number, filter: ShipmentListFilter, limit: number, beforeId: number | null): Promise<ShipmentRow[]> {
    return this.listed(accountId, filter, beforeId).selectAll('shipments').orderBy('shipments.id', 'desc').limit(limit).execute();
  }

  /** The stamps of a `list` page: what its kept renderings are checked by. */
  async listStamps(accountId: number, filter: ShipmentListFilter, limit: number, beforeId: number | null): Promise<ShipmentStamp[]> {
    if (Object.values(filter).every((value) => value === undefined)) {
      const page =
        beforeId === null
          ? await pageStamps.execute(this.db, accountId, limit)
          : await pageStampsBefore.execute(this.db, accountId, beforeId, limit);
      return page.map(stampOf);
    }
    const rows = await this.listed(accountId, filter, beforeId)
      .innerJoin('shipment_versions', 'shipment_versions.shipment_row_id', 'shipments.id')
      .select(STAMP_COLUMNS)
      .orderBy('shipments.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(stampOf);
  }

  /**
   * The shipment's version as the caller's connection sees it: inside a write transaction, after its last write,
   * the version that transaction's writes leave (every write to the shipment's rendering bumps it, so any later write
   * moves it past this one).
   */
  async versionOf(id: number): Promise<number | undefined> {
    const row = await versionById.executeTakeFirst(this.db, id);
    return row ? Number(row.version) : undefined;
  }

  /**
   * Inside a transaction that has locked the shipment: its version when no other transaction can write anything its
   * rendering shows before this one ends, so that what this transaction does not write is as it was at that version
   * until it commits. On SQLite every transaction takes the write lock as it begins: its version. undefined on
   * PostgreSQL, where the row's lock keeps out other writers of the row but not those of its events.
   */
  versionWhileLocked(id: number): Promise<number | undefined> {
    return this.dialect === 'sqlite' ? this.versionOf(id) : Promise.resolve(undefined);
  }

  /** The account's shipment head by `shipment_uuid` or by `shipment_id`. */
  async head(accountId: number, by: 'shipment_uuid' | 'shipment_id', value: string): Promise<ShipmentHead | undefined> {
    const row = await (by === 'shipment_uuid' ? headByUuid : headByShipmentId).executeTakeFirst(this.db, accountId, value);
    return row ? headOf(row) : undefined;
  }

  private listed(accountId: number, filter: ShipmentListFilter, beforeId: number | null) {
    let query = this.db.selectFrom('shipments').where('shipments.account_id', '=', accountId);
    if (beforeId !== null) query = query.where('shipments.id', '<', beforeId);
    if (filter.createdFrom) query = query.where('shipments.created_at', '>=', filter.createdFrom);
    if (filter.createdTo) query = query.where('shipments.created_at', '<=', filter.createdTo);
    if (filter.updatedFrom) query = query.where('shipments.updated_at', '>=', filter.updatedFrom);
    if (filter.updatedTo) query = query.where('shipments.updated_at', '<=', filter.updatedTo);
    if (filter.shipmentId) query = query.where('shipments.shipment_id', '=', filter.shipmentId);
    if (filter.trackingNumber) query = query.where(withTrackingNumber(filter.trackingNumber));
    if (filter.carrierReference) query = query.where('shipments.carrier_reference', '=', filter.carrierReference);
    if (filter.status) query = query.where('shipments.status', '=', filter.status);
    if (filter.orderId) {
      const orderId = filter.orderId;
      query = query.where('shipments.order_row_id', 'in', (qb) =>
        qb.selectFrom('orders').select('orders.id').where('orders.account_id', '=', accountId).where('orders.order_id', '=', orderId),
      );
    }
    if (filter.tag) {
      const tag = filter.tag;
      query = query.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('shipment_tags')
            .select(sql`1`.as('one'))
            .whereRef('shipment_tags.shipment_row_id', '=', 'shipments.id')
            .where('shipment_tags.account_id', '=', accountId)
            .where('shipment_tags.tag', '=', tag),
        ),
      );
    }
    return query;
  }
}

/** A stamp as read (PostgreSQL answers a bigint as text). */
function stampOf(row: { id: number | string; version: number | string }): ShipmentStamp {
  return { id: Number(row.id), version: Number(row.version) };
}

/** A head as read (PostgreSQL answers a bigint as text). */
function headOf(row: Omit<ShipmentHead, 'version'> & { version: number | string }): ShipmentHead {
  return {
    id: Number(row.id),
    shipment_id: row.shipment_id,
    shipment_uuid: row.shipment_uuid,
    pod_file: row.pod_file,
    version: Number(row.version),
  };
}

/** One of `times` for each row by its id (`times[id % n]`), as an SQL expression; at most MAX_SPREAD of them. */
function spreadById(times: ReadonlyArray<string | null>) {
  const spread = times.length > MAX_SPREAD ? times.filter((_, i) => i % Math.ceil(times.length / MAX_SPREAD) === 0) : times;
  if (spread.length === 0) throw new Error('reschedule: no time given');
  if (spread.length === 1) return sql`${spread[0]}`;
  return sql`case id % ${sql.lit(spread.length)} ${sql.join(
    spread.map((time, i) => sql`when ${sql.lit(i)} then ${time}`),
    sql` `,
  )} end`;
}
