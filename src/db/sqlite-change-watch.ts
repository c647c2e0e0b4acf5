import type SqliteDatabase from 'better-sqlite3';
import type { ChangeMark, ChangeWatch } from './change-watch.js';

/** Shipments (and accounts) whose last write is remembered; beyond it the list starts over and every earlier mark is void. */
const REMEMBERED = 100_000;

/**
 * Changes to shipments on the embedded database, followed without reading them:
 * - commits of other connections (another process, `waybill` commands, a statement typed into the file) by
 *   `PRAGMA data_version`, which changes with each of them and never with this connection's own;
 * - this connection's own writes by temporary triggers (this connection's alone, never in the file) that note
 *   the shipment of every update or delete of `shipments` and of `shipment_versions` (which every write a
 *   rendering shows bumps, 0026), and the account of every shipment inserted (or given another account), as the
 *   statement runs, before its commit.
 *
 * A shipment inserted is noted by the insert of its version row, which the repository writes in the insert's
 * transaction (ShipmentsRepository's `insertVersion`), not by a trigger on the insert of the shipment: a trigger
 * makes an insert a statement that may write several rows, and SQLite then copies every page the insert changes
 * (its row and each of its eight indexes) to a statement journal before changing it. The version row's insert
 * (`or ignore`, which cannot fail part-way) needs no statement journal with or without a trigger.
 *
 * The triggers are made at the first mark, once the tables exist (after migrations); until then, and after a
 * failed sync (no answer may be given then: WalSync), there is no mark.
 */
export class SqliteChangeWatch implements ChangeWatch {
  private written = 0;
  /**
   * `written` as it stood when the connection last had no transaction open, or last committed: every write up to it
   * is committed (or rolled back), those after it may be in a transaction still open.
   */
  private settled = 0;
  /** Marks taken before this are void (the remembered writes were forgotten). */
  private forgotten = 0;
  private readonly lastWrite = new Map<number, number>();
  /** The last shipment made in (or moved into) each account, as a count of writes. */
  private readonly lastInsert = new Map<number, number>();
  private dataVersion: SqliteDatabase.Statement | null = null;

  constructor(
    private readonly raw: SqliteDatabase.Database,
    private readonly failed: () => boolean,
  ) {}

  /**
   * While a transaction is open on the connection, a read may be made on another connection (SqliteDirectReads' reader),
   * which does not see what that transaction wrote: the mark then counts only the writes committed, and those of the
   * open transaction make what was read then void once they are committed.
   */
  mark(): ChangeMark | null {
    if (this.failed() || !this.watching()) return null;
    const dataVersion = this.readDataVersion();
    if (dataVersion === null) return null;
    if (!this.raw.inTransaction) this.settled = this.written;
    return { dataVersion, written: this.settled };
  }

  /** The connection has committed: every write noted so far is in the file. */
  committed(): void {
    if (!this.raw.inTransaction) this.settled = this.written;
  }

  unchangedSince(mark: ChangeMark, rowId: number): boolean {
    return (
      mark.written >= this.forgotten &&
      (this.lastWrite.get(rowId) ?? 0) <= mark.written &&
      !this.failed() &&
      this.readDataVersion() === mark.dataVersion
    );
  }

  accountUnchangedSince(mark: ChangeMark, accountId: number, rowIds: readonly number[]): boolean {
    if (mark.written < this.forgotten || (this.lastInsert.get(accountId) ?? 0) > mark.written) return false;
    for (const rowId of rowIds) if ((this.lastWrite.get(rowId) ?? 0) > mark.written) return false;
    return !this.failed() && this.readDataVersion() === mark.dataVersion;
  }

  /** null when it cannot be read now (the connection busy with a statement): nothing is taken as unchanged then. */
  private readDataVersion(): number | null {
    try {
      return (this.dataVersion as SqliteDatabase.Statement).get() as number;
    } catch {
      return null;
    }
  }

  private noteWrite(rowId: number): void {
    this.lastWrite.set(rowId, ++this.written);
    if (this.lastWrite.size > REMEMBERED) this.forget();
  }

  private noteInsert(accountId: number): void {
    this.lastInsert.set(accountId, ++this.written);
    if (this.lastInsert.size > REMEMBERED) this.forget();
  }

  private forget(): void {
    this.lastWrite.clear();
    this.lastInsert.clear();
    this.forgotten = this.written;
  }

  private watching(): boolean {
    if (this.dataVersion) return true;
    // Made outside any transaction, so that no rollback can take the triggers away.
    if (this.raw.inTransaction) return false;
    const tables = this.raw
      .prepare(`select count(*) from sqlite_master where type = 'table' and name in ('shipments', 'shipment_versions')`)
      .pluck()
      .get();
    if (tables !== 2) return false;
    try {
      this.raw.function('waybill_shipment_written', { deterministic: false }, (rowId: unknown) => {
        this.noteWrite(Number(rowId));
        return null;
      });
      this.raw.function('waybill_shipment_made', { deterministic: false }, (accountId: unknown) => {
        this.noteInsert(Number(accountId));
        return null;
      });
      const note = (row: string) => `select waybill_shipment_written(${row}.id);`;
      const noteVersion = (row: string) => `select waybill_shipment_written(${row}.shipment_row_id);`;
      this.raw.exec(`
        create temp trigger if not exists waybill_watch_shipment_update after update on main.shipments begin ${note('old')} ${note('new')} end;
        create temp trigger if not exists waybill_watch_shipment_delete after delete on main.shipments begin ${note('old')} end;
        create temp trigger if not exists waybill_watch_version_update after update on main.shipment_versions begin ${noteVersion('old')} ${noteVersion('new')} end;
        create temp trigger if not exists waybill_watch_version_delete after delete on main.shipment_versions begin ${noteVersion('old')} end;
        create temp trigger if not exists waybill_watch_version_insert after insert on main.shipment_versions begin select waybill_shipment_made((select account_id from main.shipments where id = new.shipment_row_id)); end;
        create temp trigger if not exists waybill_watch_shipment_account after update of account_id on main.shipments begin select waybill_shipment_made(new.account_id); end;
      `);
    } catch {
      // A read-only file, or the connection busy with a statement: every read is made, and the next mark tries again.
      return false;
    }
    this.dataVersion = this.raw.prepare('pragma data_version').pluck();
    return true;
  }
}
