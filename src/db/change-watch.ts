/** A moment to compare later reads with (see ChangeWatch). */
export interface ChangeMark {
  /** The database's count of other connections' commits, as this process saw it. */
  readonly dataVersion: number;
  /** This process's own shipment writes noted so far. */
  readonly written: number;
}

/**
 * What a process can know of changes to shipments without reading them: whether anything may have changed a
 * shipment since a moment. A read made after `mark()` may be answered again, without reading, while
 * `unchangedSince` holds for what it read. Only the embedded database can tell (SqliteChangeWatch); elsewhere
 * there is none and every read is made.
 */
export interface ChangeWatch {
  /** A moment, taken before a read; null when changes cannot be followed now (nothing read then may be reused). */
  mark(): ChangeMark | null;
  /**
   * True only when no commit of another connection happened since `mark` and this process wrote nothing of the
   * shipment `rowId` since (its row, its version, its deletion; written includes not yet committed or rolled back).
   */
  unchangedSince(mark: ChangeMark, rowId: number): boolean;
  /**
   * True only when no commit of another connection happened since `mark`, this process made no shipment of the
   * account since (nor moved one into it), and wrote none of the shipments `rowIds` since: what the account's list
   * reads from its newest shipments down to the last of `rowIds` is then as it was.
   */
  accountUnchangedSince(mark: ChangeMark, accountId: number, rowIds: readonly number[]): boolean;
}
