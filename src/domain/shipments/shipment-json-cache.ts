import type { ShapeVersion } from './shipment.presenter.js';

interface Entry {
  /** The shipment's `shipment_versions.version` when what the rendering was made from was read. */
  version: number;
  json: Buffer;
}

/** Bytes an entry is counted as beyond its text (key, entry, map slot). */
const ENTRY_OVERHEAD = 200;

/**
 * Shipments rendered as JSON (UTF-8 bytes in the form `RenderedShipment.json` describes: a response is then the
 * bytes themselves or a copy of them, not a re-encoding of a string built from thousands of pieces), kept per
 * process by row id and shape, least recently used dropped first once the texts pass `maxBytes`. An entry is used
 * only when the shipment's version in the database (bumped by triggers in the transaction of every write to its
 * row, order, events, documents or return ticket) is the one read before the rendering's parts were read, so a
 * change anywhere (this process, another API process, a worker, a statement typed into the database) is never
 * answered from a stale copy. Only renderings of committed data may be stored: the reader reads through the
 * database, never a transaction, and renders the rows a create or an update wrote only once it has committed.
 */
export class ShipmentJsonCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  /** Renderings answered from the cache, and those made anew (counted since start, for metrics). */
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  /** The kept rendering of this shipment in this shape made at `version`, or undefined (counted as a miss). */
  get(shape: ShapeVersion, shipmentRowId: number, version: number): Buffer | undefined {
    const key = `${shape}:${shipmentRowId}`;
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.json;
  }

  /**
   * Keeps a rendering made from parts all read after the shipment's version was read as `version` (the parts are
   * then at least that version, and a later write bumps the version past it), or made from exactly what the
   * shipment held at `version` (a create's rows at 0: `ShipmentReader.keepCreated`).
   */
  set(shape: ShapeVersion, shipmentRowId: number, version: number, json: Buffer): void {
    const key = `${shape}:${shipmentRowId}`;
    const size = json.length + ENTRY_OVERHEAD;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.json.length + ENTRY_OVERHEAD;
    }
    if (size > this.maxBytes) return;
    this.entries.set(key, { version, json });
    this.bytes += size;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.json.length + ENTRY_OVERHEAD;
    }
  }

  /** Entries and the bytes they are counted as, hits and misses (metrics). */
  get usage(): { entries: number; bytes: number; hits: number; misses: number } {
    return { entries: this.entries.size, bytes: this.bytes, hits: this.hits, misses: this.misses };
  }
}
