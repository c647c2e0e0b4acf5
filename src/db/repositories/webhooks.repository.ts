import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { Database, WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable, WebhookEventsTable } from '../schema.js';

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookEventRow = Selectable<WebhookEventsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;

export class WebhooksRepository {
  constructor(private readonly db: Kysely<Database>) {}

  insertEndpoint(row: Insertable<WebhookEndpointsTable>): Promise<WebhookEndpointRow> {
    return this.db.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
  }

  updateEndpoint(id: number, changes: Updateable<WebhookEndpointsTable>): Promise<WebhookEndpointRow> {
    return this.db.updateTable('webhook_endpoints').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  async deleteEndpoint(id: number): Promise<void> {
    await this.db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
  }

  listEndpoints(accountId: number): Promise<WebhookEndpointRow[]> {
    return this.db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
  }

  findEndpoint(accountId: number, webhookUuid: string): Promise<WebhookEndpointRow | undefined> {
    return this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('webhook_uuid', '=', webhookUuid)
      .executeTakeFirst();
  }

  findEndpointById(id: number): Promise<WebhookEndpointRow | undefined> {
    return this.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The next sequence number of a shipment's events; the row update serializes concurrent writers. */
  async nextSequence(shipmentRowId: number): Promise<number> {
    const row = await this.db
      .updateTable('shipments')
      .set({ webhook_sequence: sql`webhook_sequence + 1` })
      .where('id', '=', shipmentRowId)
      .returning('webhook_sequence')
      .executeTakeFirstOrThrow();
    return Number(row.webhook_sequence);
  }

  /** The rows an event refers to, for rendering its body outside the request that caused it. */
  shipmentById(id: number) {
    return this.db.selectFrom('shipments').selectAll().where('id', '=', id).executeTakeFirst();
  }

  returnById(id: number) {
    return this.db.selectFrom('returns').selectAll().where('id', '=', id).executeTakeFirst();
  }

  insertEvent(row: Insertable<WebhookEventsTable>): Promise<WebhookEventRow> {
    return this.db.insertInto('webhook_events').values(row).returningAll().executeTakeFirstOrThrow();
  }

  findEvent(id: number): Promise<WebhookEventRow | undefined> {
    return this.db.selectFrom('webhook_events').selectAll().where('id', '=', id).executeTakeFirst();
  }

  insertDelivery(row: Insertable<WebhookDeliveriesTable>): Promise<WebhookDeliveryRow> {
    return this.db.insertInto('webhook_deliveries').values(row).returningAll().executeTakeFirstOrThrow();
  }

  findDelivery(id: number): Promise<WebhookDeliveryRow | undefined> {
    return this.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  }

  updateDelivery(id: number, changes: Updateable<WebhookDeliveriesTable>): Promise<WebhookDeliveryRow> {
    return this.db.updateTable('webhook_deliveries').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  async countFailed(accountId: number, endpointId?: number): Promise<number> {
    let query = this.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('status', '=', 'failed');
    if (endpointId !== undefined) query = query.where('endpoint_id', '=', endpointId);
    return Number((await query.executeTakeFirstOrThrow()).n);
  }

  listFailed(accountId: number, options: { endpointId?: number; since?: string; limit: number }): Promise<WebhookDeliveryRow[]> {
    let query = this.db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', accountId).where('status', '=', 'failed');
    if (options.endpointId !== undefined) query = query.where('endpoint_id', '=', options.endpointId);
    if (options.since) query = query.where('created_at', '>=', options.since);
    return query.orderBy('id').limit(options.limit).execute();
  }

  insertAttempt(row: Insertable<WebhookAttemptsTable>): Promise<void> {
    return this.db
      .insertInto('webhook_attempts')
      .values(row)
      .execute()
      .then(() => undefined);
  }

  /** The endpoint's most recent attempts, newest first, with the event each carried. */
  recentAttempts(endpointId: number, limit: number) {
    return this.db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_row_id')
      .select(['a.attempted_at', 'a.status_code', 'a.latency_ms', 'a.error', 'd.status as delivery_status', 'e.event_id', 'e.type'])
      .where('a.endpoint_id', '=', endpointId)
      .orderBy('a.id', 'desc')
      .limit(limit)
      .execute();
  }
}
