import type { ChangeMark, ChangeWatch } from '../../db/change-watch.js';
import type { ShipmentHead, ShipmentsRepository } from '../../db/repositories/shipments.repository.js';
import { type Spareable, takeOldestUnused } from './second-chance.js';

/** Where shipment heads are read from: the repository, or a memo in front of it. */
export type ShipmentHeads = Pick<ShipmentsRepository, 'head'>;

interface Kept extends Spareable {
  head: ShipmentHead;
  mark: ChangeMark;
}

/**
 * Shipment heads found by identifier, answered again without a read while the database tells (ChangeWatch) that
 * nothing can have changed the shipment since the head was read: a details request whose rendering is kept then
 * reads nothing. A head is kept only as read from the database (never in a transaction) and only when found, so
 * a shipment made later under a looked-up identifier is always read. Beyond `max` the oldest not answered since
 * it was kept goes first (`takeOldestUnused`).
 */
export class ShipmentHeadMemo implements ShipmentHeads {
  private readonly kept = new Map<string, Kept>();
  /** Heads answered without a read (counted since start). */
  hits = 0;

  constructor(
    private readonly heads: ShipmentHeads,
    private readonly changes: ChangeWatch,
    private readonly max = 50_000,
  ) {}

  async head(accountId: number, by: 'shipment_uuid' | 'shipment_id', value: string): Promise<ShipmentHead | undefined> {
    const key = `${accountId}\u0000${by}\u0000${value}`;
    const kept = this.keptAt(key);
    if (kept) return kept;
    const mark = this.changes.mark();
    const head = await this.heads.head(accountId, by, value);
    if (head && mark) {
      this.kept.delete(key);
      if (this.kept.size >= this.max) takeOldestUnused(this.kept);
      this.kept.set(key, { head, mark, used: false });
    }
    return head;
  }

  /** The head kept for this identifier when nothing can have changed it since, without a read; undefined otherwise. */
  keptHead(accountId: number, by: 'shipment_uuid' | 'shipment_id', value: string): ShipmentHead | undefined {
    return this.keptAt(`${accountId}\u0000${by}\u0000${value}`);
  }

  private keptAt(key: string): ShipmentHead | undefined {
    const kept = this.kept.get(key);
    if (!kept) return undefined;
    if (!this.changes.unchangedSince(kept.mark, kept.head.id)) {
      this.kept.delete(key);
      return undefined;
    }
    kept.used = true;
    this.hits++;
    return kept.head;
  }
}
