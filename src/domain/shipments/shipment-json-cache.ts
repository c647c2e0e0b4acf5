import type { OrderRow } from '../../db/repositories/orders.repository.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { ShapeVersion } from './shipment.presenter.js';

/**
 * Everything a shipment's rendering is made from. The row, its order, its documents and the v5.2 extras
 * are read for every request anyway (they are small); the events, most of the work, are known by their
 * stamp (count and newest row id: events are only ever added).
 */
export interface RenderInputs {
  row: ShipmentRow;
  order: OrderRow | null;
  /** `ShipmentsRepository.eventStamps` of the shipment. */
  events: string;
  /** The document references as JSON. */
  documents: string;
  /** The v5.2 `returns` and `collection_point` as JSON ('' for v5). */
  extras: string;
}

interface Entry extends RenderInputs {
  json: Buffer;
  size: number;
}

/** Every field of both records equal (rows of one table: strings, numbers, null). */
function sameRecord(a: object | null, b: object | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  for (const key in right) if (left[key] !== right[key]) return false;
  for (const key in left) if (!(key in right)) return false;
  return true;
}

function sameInputs(entry: Entry, inputs: RenderInputs): boolean {
  return (
    entry.events === inputs.events &&
    entry.documents === inputs.documents &&
    entry.extras === inputs.extras &&
    sameRecord(entry.row, inputs.row) &&
    sameRecord(entry.order, inputs.order)
  );
}

/**
 * Shipments rendered as JSON (UTF-8 bytes: a response is then a copy of them, not a re-encoding of a
 * string built from thousands of pieces), kept per process by row id and shape, least recently used dropped first
 * once the texts pass `maxBytes`. An entry is used only when everything it was made from is equal to what
 * the request read from the database, so a change anywhere (this process, another API process, a worker)
 * is never answered from a stale copy. Only renderings of committed data may be stored: the reader reads
 * through the database, never a transaction.
 */
export class ShipmentJsonCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  /** Renderings answered from the cache, and those made anew (counted since start, for metrics). */
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  /** Whether a rendering of this shipment in this shape is kept (it may still be out of date). */
  holds(version: ShapeVersion, shipmentRowId: number): boolean {
    return this.entries.has(`${version}:${shipmentRowId}`);
  }

  /** Counts a shipment rendered anew because none was kept. */
  missed(): void {
    this.misses++;
  }

  get(version: ShapeVersion, inputs: RenderInputs): Buffer | undefined {
    const key = `${version}:${inputs.row.id}`;
    const entry = this.entries.get(key);
    if (!entry || !sameInputs(entry, inputs)) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.json;
  }

  set(version: ShapeVersion, inputs: RenderInputs, json: Buffer): void {
    const key = `${version}:${inputs.row.id}`;
    const size = json.length + inputs.row.body.length + inputs.documents.length + inputs.extras.length + 1024;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.size;
    }
    if (size > this.maxBytes) return;
    this.entries.set(key, { ...inputs, json, size });
    this.bytes += size;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.size;
    }
  }

  /** Entries and the bytes they are counted as, hits and misses (metrics). */
  get usage(): { entries: number; bytes: number; hits: number; misses: number } {
    return { entries: this.entries.size, bytes: this.bytes, hits: this.hits, misses: this.misses };
  }
}
