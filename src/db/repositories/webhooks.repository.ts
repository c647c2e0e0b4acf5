import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import { PreparedQuery } from '../prepared-query.js';
import type { Database, WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable, WebhookEventsTable } from '../schema.js';

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookEventRow = Selectable<WebhookEventsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;

/** The reads and writes of every delivery, compiled once. */
const findDelivery = new PreparedQuery((db, id: number) => db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id));
const findEndpointById = new PreparedQuery((db, id: number) => db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id));
const findEvent = new PreparedQuery((db, id: number) => db.selectFrom('webhook_events').selectAll().where('id', '=', id));
const listEndpoints = new PreparedQuery((db, accountId: number) =>
  db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', accountId).orderBy('id'),
);
const setDeliveryBody = new PreparedQuery((db, id: number, body: string) =>
  db.updateTable('webhook_deliveries').set({ body }).where('id', '=', id),
);
const recordOutcome = new PreparedQuery(
  (db, id: number, status: string, attempts: number, lastStatusCode: number | null, lastError: string | null, updatedAt: string) =>
    db
      .updateTable('webhook_deliveries')
      .set({ status, attempts, last_status_code: lastStatusCode, last_error: lastError, updated_at: updatedAt })
      .where('id', '=', id),
);
const insertAttempt = new PreparedQuery(
  (db, deliveryId: number, endpointId: number, attemptedAt: string, statusCode: number | null, latencyMs: number, error: string | null) =>
    db.insertInto('webhook_attempts').values({
      delivery_id: deliveryId,
      endpoint_id: endpointId,
      attempted_at: attemptedAt,
      status_code: statusCode,
      latency_ms: latencyMs,
      error,
    }),
);

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
    return listEndpoints.execute(this.db, accountId);
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
    return findEndpointById.executeTakeFirst(this.db, id);
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
    return findEvent.executeTakeFirst(this.db, id);
  }

  insertDelivery(row: Insertable<WebhookDeliveriesTable>): Promise<WebhookDeliveryRow> {
    return this.db.insertInto('webhook_deliveries').values(row).returningAll().executeTakeFirstOrThrow();
  }

  findDelivery(id: number): Promise<WebhookDeliveryRow | undefined> {
    return findDelivery.executeTakeFirst(this.db, id);
  }

  /** Fixes the body a delivery sends on every attempt. */
  async setDeliveryBody(id: number, body: string): Promise<void> {
    await setDeliveryBody.execute(this.db, id, body);
  }

  /** One attempt of a delivery: the attempt's log row and the delivery's state after it. */
  async recordAttempt(
    attempt: {
      delivery_id: number;
      endpoint_id: number;
      attempted_at: string;
      status_code: number | null;
      latency_ms: number;
      error: string | null;
    },
    status: string,
    attempts: number,
  ): Promise<void> {
    await insertAttempt.execute(
      this.db,
      attempt.delivery_id,
      attempt.endpoint_id,
      attempt.attempted_at,
      attempt.status_code,
      attempt.latency_ms,
      attempt.error,
    );
    await recordOutcome.execute(this.db, attempt.delivery_id, status, attempts, attempt.status_code, attempt.error, attempt.attempted_at);
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
