import { type MigrationDb, notNull, withId } from './helpers.js';

/**
 * Consumer notifications: each account's settings and template overrides, the log of every message (one row
 * per shipment, trigger, channel and recipient, which is what makes a message go out once), and the
 * recipients who asked for no more.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('notification_settings'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().unique().references('accounts.id').onDelete('cascade'))
    /** The merchant's settings (JSON); SMS provider secrets inside are sealed. */
    .addColumn('settings', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .execute();

  await withId(db, db.schema.createTable('notification_templates'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('trigger', 'text', notNull)
    .addColumn('channel', 'text', notNull)
    .addColumn('language', 'text', notNull)
    .addColumn('subject', 'text')
    .addColumn('body', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .addUniqueConstraint('notification_templates_key', ['account_id', 'trigger', 'channel', 'language'])
    .execute();

  await withId(db, db.schema.createTable('notifications'))
    .addColumn('notification_uuid', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('shipment_row_id', 'bigint', (c) => c.notNull().references('shipments.id').onDelete('cascade'))
    .addColumn('trigger', 'text', notNull)
    .addColumn('channel', 'text', notNull)
    /** The address or E.164 number, as sent to. */
    .addColumn('recipient', 'text', notNull)
    .addColumn('language', 'text', notNull)
    /** queued, sent, failed or suppressed. */
    .addColumn('status', 'text', notNull)
    /** Why it was suppressed or failed. */
    .addColumn('reason', 'text')
    /** The e-mail's Message-ID, fixed when queued so that a resend after a crash carries the same one. */
    .addColumn('message_id', 'text', notNull)
    /** The provider's id (an SMS provider's message id, the SMTP server's queue answer). */
    .addColumn('provider_id', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    /** When the change that caused it happened (the event's time). */
    .addColumn('event_at', 'text')
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .addColumn('sent_at', 'text')
    .addUniqueConstraint('notifications_once', ['shipment_row_id', 'trigger', 'channel', 'recipient'])
    .execute();
  await db.schema.createIndex('notifications_account_shipment').on('notifications').columns(['account_id', 'shipment_row_id']).execute();
  await db.schema.createIndex('notifications_recipient_sent').on('notifications').columns(['account_id', 'recipient', 'sent_at']).execute();

  await withId(db, db.schema.createTable('notification_suppressions'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('channel', 'text', notNull)
    .addColumn('recipient', 'text', notNull)
    /** The shipment it applies to; 0 for every shipment of the account. */
    .addColumn('shipment_row_id', 'bigint', notNull)
    /** unsubscribed, opted_out (SMS STOP) or bounced. */
    .addColumn('reason', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .addUniqueConstraint('notification_suppressions_key', ['account_id', 'channel', 'recipient', 'shipment_row_id'])
    .execute();
}
