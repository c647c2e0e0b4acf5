import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connection.js';

/** SQLite's numbers for the `synchronous` setting. */
const NORMAL = 1;
const FULL = 2;

describe('SQLite durability', () => {
  let handle: DatabaseHandle | null = null;
  let dir = '';
  afterEach(async () => {
    await handle?.close();
    handle = null;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function synchronousOf(options: { sqliteSynchronous?: 'full' | 'normal' }): Promise<number> {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-sync-'));
    handle = openDatabase({ dataDir: dir, databaseUrl: null, ...options });
    const result = await sql<{ synchronous: number }>`pragma synchronous`.execute(handle.db);
    return result.rows[0].synchronous;
  }

  it('syncs every commit to disk by default, so an acknowledged write survives a power cut', async () => {
    expect(loadConfig({}).sqliteSynchronous).toBe('full');
    expect(await synchronousOf({ sqliteSynchronous: loadConfig({}).sqliteSynchronous })).toBe(FULL);
  });

  it('trades that away only when told to', async () => {
    const config = loadConfig({ WAYBILL_SQLITE_SYNCHRONOUS: 'NORMAL' });
    expect(config.sqliteSynchronous).toBe('normal');
    expect(await synchronousOf({ sqliteSynchronous: config.sqliteSynchronous })).toBe(NORMAL);
  });

  it('refuses any other value', () => {
    expect(() => loadConfig({ WAYBILL_SQLITE_SYNCHRONOUS: 'off' })).toThrow(ConfigError);
  });
});
