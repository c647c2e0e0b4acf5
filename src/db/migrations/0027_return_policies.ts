import { type MigrationDb, notNull } from './helpers.js';

/**
 * `return_policies`: each account's returns policy (window, reasons, methods, approval rules, what cannot be
 * returned, the portal's look) as one JSON document, and the account's returns portal reference: a random,
 * unguessable text in the portal's address (`/returns/{portal_reference}`), made once and never changed, so
 * that links in e-mails and on packing slips keep working. An account gets its row when its policy is first
 * read or saved.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('return_policies')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('portal_reference', 'text', (c) => c.notNull().unique())
    .addColumn('policy', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text')
    .execute();
}
