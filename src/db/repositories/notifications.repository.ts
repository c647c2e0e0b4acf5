import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { DialectName } from '../connection.js';
import { PreparedQuery, PreparedQueryFamily, writeById } from '../prepared-query.js';
import type { Database, NotificationSettingsTable, NotificationsTable, NotificationTemplatesTable } from '../schema.js';

export type NotificationRow = Selectable<NotificationsTable>;
export type NotificationTemplateRow = Selectable<NotificationTemplatesTable>;
export type NotificationSettingsRow = Selectable<NotificationSettingsTable>;

// Each message's sender runs these: prepared once (see PreparedQuery).
const findById = new PreparedQuery((db, id: number) => db.selectFrom('notifications').selectAll().where('id', '=', id));
const suppressionOf = new PreparedQuery((db, accountId: number, channel: string, recipient: string, shipmentRowId: number, all: number) =>
  db
    .selectFrom('notification_suppressions')
    .select('reason')
    .where('account_id', '=', accountId)
    .where('channel', '=', channel)
    .where('recipient', '=', recipient)
    .where('shipment_row_id', 'in', [shipmentRowId, all])
    .orderBy('shipment_row_id'),
);
const sendSlot = new PreparedQuery(
  (db, id: number, now: string, accountId: number, recipient: string, since: string, otherId: number, limit: number) =>
    db
      .updateTable('notifications')
      .set({ sent_at: now })
      .where('id', '=', id)
      .where(
        (eb) =>
          eb
            .selectFrom('notifications as other')
            .select((inner) => inner.fn.countAll<number>().as('n'))
            .where('other.account_id', '=', accountId)
            .where('other.recipient', '=', recipient)
            .where('other.sent_at', '>=', since)
            .where('other.id', '!=', otherId),
        '<',
        limit,
      )
      .returning('id'),
);
/** Updates of a message by the columns they set: a sender writes the same two or three shapes. */
const updates = new PreparedQueryFamily<unknown[], never>(16);
/** Read for every tracking change a consumer might be told of, by the poll that made it. */
const settingsOf = new PreparedQuery((db, accountId: number) =>
  db.selectFrom('notification_settings').selectAll().where('account_id', '=', accountId),
);

/** Notification settings, templates, the message log and the suppression list; every query scoped by account. */
export class NotificationsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  async settingsOf(accountId: number): Promise<NotificationSettingsRow | undefined> {
    return settingsOf.executeTakeFirst(this.db, accountId);
  }

  async putSettings(accountId: number, settings: string, now: string): Promise<void> {
    await this.db
      .insertInto('notification_settings')
      .values({ account_id: accountId, settings, updated_at: now })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ settings, updated_at: now }))
      .execute();
  }

  async templatesOf(accountId: number): Promise<NotificationTemplateRow[]> {
    return this.db
      .selectFrom('notification_templates')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('trigger')
      .orderBy('channel')
      .orderBy('language')
      .execute();
  }

  async template(accountId: number, trigger: string, channel: string, language: string): Promise<NotificationTemplateRow | undefined> {
    return this.db
      .selectFrom('notification_templates')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('trigger', '=', trigger)
      .where('channel', '=', channel)
      .where('language', '=', language)
      .executeTakeFirst();
  }

  async putTemplate(row: Insertable<NotificationTemplatesTable>): Promise<void> {
    await this.db
      .insertInto('notification_templates')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['account_id', 'trigger', 'channel', 'language'])
          .doUpdateSet({ subject: row.subject ?? null, body: row.body, updated_at: row.updated_at }),
      )
      .execute();
  }

  async deleteTemplate(accountId: number, trigger: string, channel: string, language: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('notification_templates')
      .where('account_id', '=', accountId)
      .where('trigger', '=', trigger)
      .where('channel', '=', channel)
      .where('language', '=', language)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Adds messages to the log, skipping any whose (shipment, trigger, channel, recipient) is there already:
   * that key is what sends a message once. Returns the rows added.
   */
  async insertNew(rows: ReadonlyArray<Insertable<NotificationsTable>>): Promise<NotificationRow[]> {
    if (rows.length === 0) return [];
    return this.db
      .insertInto('notifications')
      .values([...rows])
      .onConflict((oc) => oc.columns(['shipment_row_id', 'trigger', 'channel', 'recipient']).doNothing())
      .returningAll()
      .execute();
  }

  async find(id: number): Promise<NotificationRow | undefined> {
    return findById.executeTakeFirst(this.db, id);
  }

  async findByUuid(accountId: number, uuid: string): Promise<NotificationRow | undefined> {
    return this.db
      .selectFrom('notifications')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('notification_uuid', '=', uuid)
      .executeTakeFirst();
  }

  /** The message an unsubscribe link names (the link's signature is the authority, not an account). */
  async findByUuidAnyAccount(uuid: string): Promise<NotificationRow | undefined> {
    return this.db.selectFrom('notifications').selectAll().where('notification_uuid', '=', uuid).executeTakeFirst();
  }

  async update(id: number, changes: Updateable<NotificationsTable>): Promise<void> {
    await writeById(this.db, updates, 'notifications', id, changes);
  }

  /** The account's log, newest first, each entry with its shipment's uuid, optionally of one shipment; `beforeId` pages. */
  async list(
    accountId: number,
    options: { shipmentRowId?: number; beforeId?: number; limit: number },
  ): Promise<Array<NotificationRow & { shipment_uuid: string }>> {
    let query = this.db
      .selectFrom('notifications')
      .innerJoin('shipments', 'shipments.id', 'notifications.shipment_row_id')
      .selectAll('notifications')
      .select('shipments.shipment_uuid')
      .where('notifications.account_id', '=', accountId);
    if (options.shipmentRowId !== undefined) query = query.where('notifications.shipment_row_id', '=', options.shipmentRowId);
    if (options.beforeId !== undefined) query = query.where('notifications.id', '<', options.beforeId);
    return query.orderBy('notifications.id', 'desc').limit(options.limit).execute();
  }

  /**
   * Takes one of the recipient's sends for the hour (the per-recipient limit): marks the message as being sent
   * (`sent_at`) only while fewer than `limit` messages of the account to that recipient were sent or are being
   * sent since `since`. One statement, under a lock on the recipient on PostgreSQL, so that workers sending
   * at once cannot all take the last one. False: the limit is reached.
   */
  async takeSendSlot(row: { id: number; account_id: number; recipient: string }, since: string, limit: number, now: string) {
    const take = async (db: Kysely<Database>) =>
      (await sendSlot.execute(db, row.id, now, row.account_id, row.recipient, since, row.id, limit)).length > 0;
    // SQLite runs one writing statement at a time: the statement alone is enough.
    if (this.dialect !== 'postgres') return take(this.db);
    return this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`notify:${row.account_id}:${row.recipient}`}))`.execute(trx);
      return take(trx);
    });
  }

  /** The message an SMS provider's id names (delivery reports). */
  async findByProviderId(channel: string, providerId: string): Promise<NotificationRow | undefined> {
    return this.db
      .selectFrom('notifications')
      .selectAll()
      .where('channel', '=', channel)
      .where('provider_id', '=', providerId)
      .executeTakeFirst();
  }

  /** Records that a recipient wants no more (for one shipment, or with shipment 0 for every one of the account). */
  async suppress(row: {
    account_id: number;
    channel: string;
    recipient: string;
    shipment_row_id: number;
    reason: string;
    created_at: string;
  }) {
    await this.db
      .insertInto('notification_suppressions')
      .values(row)
      .onConflict((oc) => oc.columns(['account_id', 'channel', 'recipient', 'shipment_row_id']).doNothing())
      .execute();
  }

  async unsuppress(accountId: number, channel: string, recipient: string, shipmentRowId: number, reason: string): Promise<void> {
    await this.db
      .deleteFrom('notification_suppressions')
      .where('account_id', '=', accountId)
      .where('channel', '=', channel)
      .where('recipient', '=', recipient)
      .where('shipment_row_id', '=', shipmentRowId)
      .where('reason', '=', reason)
      .execute();
  }

  /** Why a recipient gets nothing more for a shipment (its own suppression or the account-wide one), or null. */
  async suppression(accountId: number, channel: string, recipient: string, shipmentRowId: number): Promise<string | null> {
    const row = await suppressionOf.executeTakeFirst(this.db, accountId, channel, recipient, shipmentRowId, 0);
    return row?.reason ?? null;
  }
}
