import { type MigrationDb, notNull } from './helpers.js';

/** Console sessions ended by signing out, kept until the session's own expiry (then purged by housekeeping). */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('console_session_revocations')
    .addColumn('session_hash', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', notNull)
    .execute();
  await db.schema.createIndex('console_session_revocations_expiry').on('console_session_revocations').column('expires_at').execute();
}
