import type { Clock } from '../clock.js';
import type { DocumentFilesRepository } from '../db/repositories/document-files.repository.js';
import { assertSafeContentType, assertSafeKey, type FileStore, type StoredFile } from './file-store.js';

/**
 * A {@link FileStore} in the database (`document_files`: a BLOB on SQLite, `bytea` on PostgreSQL). A put is
 * one statement, committed (and on SQLite synced) before it resolves, so a caller that marks its document ready
 * afterwards never has a ready document without its bytes, whichever process serves it.
 */
export class DatabaseFileStore implements FileStore {
  constructor(
    private readonly files: DocumentFilesRepository,
    private readonly clock: Clock,
  ) {}

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertSafeKey(key);
    assertSafeContentType(contentType);
    await this.files.put({ file_key: key, content_type: contentType, bytes, stored_at: this.clock.now().toISOString() });
  }

  async get(key: string): Promise<StoredFile | null> {
    assertSafeKey(key);
    const row = await this.files.find(key);
    return row ? { bytes: row.bytes, contentType: row.content_type } : null;
  }

  async delete(key: string): Promise<boolean> {
    assertSafeKey(key);
    return this.files.delete(key);
  }
}
