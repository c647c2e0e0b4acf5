import { isPostgres, type MigrationDb, notNull } from './helpers.js';

/**
 * Document bytes (labels, proofs of delivery) in the database, so every API process can serve what any of them
 * rendered. Files of the former disk store are copied in at start-up (src/documents/disk-file-import.ts): a
 * migration sees the database only, not the data directory.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('document_files')
    .addColumn('file_key', 'text', (c) => c.primaryKey())
    .addColumn('content_type', 'text', notNull)
    .addColumn('bytes', isPostgres(db) ? 'bytea' : 'blob', notNull)
    .addColumn('stored_at', 'text', notNull)
    .execute();
}
