import { type MigrationDb, notNull, withId } from './helpers.js';

export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('returns'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('return_uuid', 'text', (c) => c.notNull().unique())
    .addColumn('return_id', 'text')
    .addColumn('shipment_row_id', 'bigint', (c) => c.notNull().references('shipments.id').onDelete('cascade'))
    .addColumn('order_id', 'text')
    .addColumn('status', 'text', notNull)
    .addColumn('details', 'text', notNull)
    .addColumn('requested_at', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .addUniqueConstraint('returns_account_return_id', ['account_id', 'return_id'])
    .execute();
  await db.schema.createIndex('returns_shipment').on('returns').column('shipment_row_id').execute();

  // Replayable responses: the 30-minute de-duplication of identical return requests, and Idempotency-Key.
  await withId(db, db.schema.createTable('request_replays'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('scope', 'text', notNull)
    .addColumn('replay_key', 'text', notNull)
    .addColumn('request_hash', 'text', notNull)
    .addColumn('status_code', 'integer')
    .addColumn('response', 'text')
    .addColumn('created_at', 'text', notNull)
    .addColumn('expires_at', 'text', notNull)
    .addUniqueConstraint('request_replays_key', ['account_id', 'scope', 'replay_key'])
    .execute();
  await db.schema.createIndex('request_replays_expiry').on('request_replays').column('expires_at').execute();
}
