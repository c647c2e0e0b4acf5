import type { MigrationDb } from './helpers.js';

/**
 * Carrier push subscriptions of a shipment's tracking number (UPS Track Alert): until when the carrier pushes
 * its events (`push_subscribed_until`; polls are rare meanwhile), and the earliest time the subscriber may ask
 * again (`push_retry_at`: a worker's claim, or a day after the carrier refused the number).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('shipments').addColumn('push_subscribed_until', 'text').execute();
  await db.schema.alterTable('shipments').addColumn('push_retry_at', 'text').execute();
  await db.schema.createIndex('shipments_push_subscription').on('shipments').columns(['carrier_id', 'push_subscribed_until']).execute();
}
