import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface DocumentFileRow {
  file_key: string;
  content_type: string;
  bytes: Uint8Array;
  stored_at: string;
}

// Both drivers bind a Buffer as a BLOB / bytea; a plain Uint8Array is viewed as one without copying.
const asBuffer = (bytes: Uint8Array) => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

/** Stored files' bytes by file-store key (labels, proofs of delivery). */
export class DocumentFilesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores the file, replacing one stored under the same key. */
  async put(row: DocumentFileRow): Promise<void> {
    const bytes = asBuffer(row.bytes);
    await this.db
      .insertInto('document_files')
      .values({ ...row, bytes })
      .onConflict((oc) => oc.column('file_key').doUpdateSet({ content_type: row.content_type, bytes, stored_at: row.stored_at }))
      .execute();
  }

  /** Stores the files whose keys have none yet, leaving stored ones as they are; the keys stored. */
  async insertMissing(rows: DocumentFileRow[]): Promise<string[]> {
    if (rows.length === 0) return [];
    const stored = await this.db
      .insertInto('document_files')
      .values(rows.map((row) => ({ ...row, bytes: asBuffer(row.bytes) })))
      .onConflict((oc) => oc.column('file_key').doNothing())
      .returning('file_key')
      .execute();
    return stored.map((row) => row.file_key);
  }

  find(fileKey: string): Promise<Pick<DocumentFileRow, 'content_type' | 'bytes'> | undefined> {
    return this.db.selectFrom('document_files').select(['content_type', 'bytes']).where('file_key', '=', fileKey).executeTakeFirst();
  }

  async delete(fileKey: string): Promise<boolean> {
    const result = await this.db.deleteFrom('document_files').where('file_key', '=', fileKey).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
