import type { ChangeMark, ChangeWatch } from '../../db/change-watch.js';
import type { ShipmentStamp } from '../../db/repositories/shipments.repository.js';
import { type Spareable, takeOldestUnused } from './second-chance.js';

/** The stamps of an account's first list page without filters, and the link to the rest. */
export interface FirstPage {
  stamps: ShipmentStamp[];
  next_page: string | null;
}

interface Kept extends Spareable {
  page: FirstPage;
  /** Every shipment the page's read returned: the page's and the one after it, which decides `next_page`. */
  rowIds: number[];
  mark: ChangeMark;
}

/**
 * Accounts' first list pages without filters, answered again without a read while the database tells (ChangeWatch)
 * that nothing can have changed them: no commit of another connection, no shipment made in the account, and none
 * of the shipments the read returned written since. A merchant polling its list for new shipments then costs no
 * read between its creates. A page is kept only as read from the database (never in a transaction); beyond `max`
 * the oldest not answered since it was kept goes first (`takeOldestUnused`).
 */
export class FirstPageMemo {
  private readonly kept = new Map<string, Kept>();
  /** Pages answered without a read (counted since start). */
  hits = 0;

  constructor(
    private readonly changes: ChangeWatch,
    private readonly max = 10_000,
  ) {}

  /** The page kept for the account and limit when nothing can have changed it since it was read; else undefined. */
  get(accountId: number, limit: number): FirstPage | undefined {
    const key = `${accountId}:${limit}`;
    const kept = this.kept.get(key);
    if (!kept) return undefined;
    if (!this.changes.accountUnchangedSince(kept.mark, accountId, kept.rowIds)) {
      this.kept.delete(key);
      return undefined;
    }
    kept.used = true;
    this.hits++;
    return kept.page;
  }

  /** A moment to take before reading a page that `keep` may then keep; null when none may be kept now. */
  mark(): ChangeMark | null {
    return this.changes.mark();
  }

  /** Keeps a page read after `mark`, of the account and limit, whose read returned `rowIds`. */
  keep(accountId: number, limit: number, mark: ChangeMark, page: FirstPage, rowIds: number[]): void {
    const key = `${accountId}:${limit}`;
    this.kept.delete(key);
    if (this.kept.size >= this.max) takeOldestUnused(this.kept);
    this.kept.set(key, { page, rowIds, mark, used: false });
  }
}
