import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openReader } from '../../src/db/connection.js';

// The second connection of the embedded database, which reads while the writing one has a transaction open.
describe('the SQLite reader connection', () => {
  let dir: string;
  let writer: SqliteDatabase.Database;
  let reader: SqliteDatabase.Database;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-reader-'));
    const file = path.join(dir, 'waybill.sqlite');
    writer = new SqliteDatabase(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('mmap_size = 268435456');
    writer.exec('create table t (id integer primary key, v text not null)');
    reader = openReader(file);
  });
  afterEach(() => {
    reader.close();
    writer.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads with pread, not a memory map that every commit of the writer would have it unmap and map again', () => {
    expect(reader.pragma('mmap_size', { simple: true })).toBe(0);
  });

  it('reads each commit of the writer, never what an open transaction wrote, and refuses to write', () => {
    const insert = writer.prepare('insert into t (id, v) values (?, ?)');
    const read = reader.prepare('select v from t order by id').pluck();
    for (let i = 1; i <= 300; i++) {
      insert.run(i, `row ${i} ${'x'.repeat(200)}`);
      // The reader's cache is dropped at every read after a commit: each read still sees the whole file.
      expect(read.all()).toHaveLength(i);
    }
    writer.exec('begin');
    insert.run(301, 'uncommitted');
    expect(read.all()).toHaveLength(300);
    writer.exec('commit');
    expect((read.all() as string[]).at(-1)).toBe('uncommitted');
    expect(() => reader.prepare('insert into t (id, v) values (1000, ?)').run('no')).toThrow(/readonly|read-only/i);
  });
});
