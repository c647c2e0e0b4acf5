import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { Command } from 'commander';
import { ConfigError, loadConfig } from '../config.js';

export interface BackupResult {
  file: string;
  pages: number;
}

/**
 * An online backup of the embedded database: SQLite's backup API copies a consistent snapshot page by page
 * while the service keeps reading and writing. The copy is written beside the target and renamed into place
 * once it passed a quick check, so a target that exists is always a whole backup.
 */
export async function backupSqlite(dataDir: string, target: string): Promise<BackupResult> {
  const source = path.join(dataDir, 'waybill.sqlite');
  if (!fs.existsSync(source)) throw new ConfigError(`no database at ${source} (is WAYBILL_DATA_DIR right?)`);
  const file = path.resolve(target);
  if (fs.existsSync(file)) throw new ConfigError(`${file} exists; choose a new file (a backup never overwrites one)`);
  const partial = `${file}.partial`;
  fs.rmSync(partial, { force: true });
  const db = new SqliteDatabase(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const progress = await db.backup(partial);
    const copy = new SqliteDatabase(partial, { readonly: true });
    try {
      const check = copy.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Error(`the copy failed its check: ${String(check)}`);
    } finally {
      copy.close();
    }
    fs.renameSync(partial, file);
    return { file, pages: progress.totalPages };
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
}

/** `waybill backup <file>`. */
export function registerBackupCommand(program: Command): void {
  program
    .command('backup <file>')
    .description('copy the embedded SQLite database to a new file while the service runs (on PostgreSQL, use pg_dump)')
    .action(async (target: string) => {
      const config = loadConfig();
      if (config.databaseUrl) {
        throw new ConfigError(
          'waybill backup copies the embedded SQLite database; this deployment uses PostgreSQL (DATABASE_URL). ' +
            'Back it up with pg_dump, e.g. pg_dump --format=custom --file=waybill.dump "$DATABASE_URL" (see docs/operations.md).',
        );
      }
      const result = await backupSqlite(config.dataDir, target);
      const key = config.secretKey ? 'WAYBILL_SECRET_KEY' : path.join(config.dataDir, 'secret.key');
      process.stdout.write(
        `backup written: ${result.file} (${result.pages} pages)\nalso keep ${key}: the key is not in the database (documents are)\n`,
      );
    });
}
