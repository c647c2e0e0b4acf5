import type { KeptRendering } from './rendered-shipment.js';
import { type Spareable, takeOldestUnused } from './second-chance.js';
import type { ShapeVersion } from './shipment.presenter.js';

interface Entry extends Spareable, KeptRendering {
  /** The shipment's `shipment_versions.version` when what the rendering was made from was read. */
  version: number;
}

/** An entry's key: the row id and the shape in one number (a number is hashed without building a string). */
function keyOf(shape: ShapeVersion, shipmentRowId: number): number {
  return shipmentRowId * 2 + (shape === 'v5' ? 0 : 1);
}

/** Bytes an entry is counted as beyond its text (key, entry, map slot). */
const ENTRY_OVERHEAD = 200;

/**
 * Shipments rendered as JSON (UTF-8 bytes in the form `RenderedShipment.json` describes: a response is then the
 * bytes themselves or a copy of them, not a re-encoding of a string built from thousands of pieces), kept per
 * process by row id and shape, the oldest not answered since it was kept dropped first once the texts pass
 * `maxBytes` (`takeOldestUnused`). An entry is used only when the shipment's version in the database (bumped by
 * triggers in the transaction of every write to its row, order, events, documents or return ticket) is the one read
 * before the rendering's parts were read, so a change anywhere (this process, another API process, a worker, a
 * statement typed into the database) is never answered from a stale copy. Only renderings of committed data may be stored: the reader reads through the
 * database, never a transaction, and renders the rows a create or an update wrote only once it has committed.
 */
export class ShipmentJsonCache {
  private readonly entries = new Map<number, Entry>();
  private bytes = 0;
  /** Renderings answered from the cache, and those made anew (counted since start, for metrics). */
  hits = 0;
  misses = 0;
  /** Renderings made anew with the events of one kept before (`keptEvents`), since start. */
  eventsReused = 0;

  constructor(private readonly maxBytes: number) {}

  /** The kept rendering of this shipment in this shape made at `version`, or undefined (counted as a miss). */
  get(shape: ShapeVersion, shipmentRowId: number, version: number): Buffer | undefined {
    const entry = this.entries.get(keyOf(shape, shipmentRowId));
    if (!entry || entry.version !== version) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    entry.used = true;
    return entry.json;
  }

  /**
   * The kept renderings of these shipments in this shape, each made at the version given, when every one is kept
   * (counted as hits); undefined, counting nothing, when one is not: the caller then takes the path that counts each.
   */
  getAll(shape: ShapeVersion, stamps: ReadonlyArray<{ id: number; version: number }>): Buffer[] | undefined {
    const entries: Entry[] = new Array(stamps.length);
    for (let i = 0; i < stamps.length; i++) {
      const entry = this.entries.get(keyOf(shape, stamps[i].id));
      if (!entry || entry.version !== stamps[i].version) return undefined;
      entries[i] = entry;
    }
    this.hits += entries.length;
    return entries.map((entry) => {
      entry.used = true;
      return entry.json;
    });
  }

  /**
   * The bytes of the events of this shipment's rendering in this shape kept at `version` (a view of the kept
   * rendering, not a copy: read it, never write to it), or undefined. Counted in `eventsReused`, not as a hit or a
   * miss: the rendering made anew with them is not answered from the cache.
   */
  keptEvents(shape: ShapeVersion, shipmentRowId: number, version: number): Uint8Array | undefined {
    const entry = this.entries.get(keyOf(shape, shipmentRowId));
    if (!entry || entry.version !== version) return undefined;
    this.eventsReused++;
    return entry.json.subarray(entry.eventsStart, entry.eventsEnd);
  }

  /**
   * Keeps a rendering made from parts all read after the shipment's version was read as `version` (the parts are
   * then at least that version, and a later write bumps the version past it), or made from exactly what the
   * shipment held at `version` (a create's rows at 0: `ShipmentReader.keepCreated`).
   */
  set(shape: ShapeVersion, shipmentRowId: number, version: number, kept: KeptRendering): void {
    const key = keyOf(shape, shipmentRowId);
    const { json, eventsStart, eventsEnd } = kept;
    const size = json.length + ENTRY_OVERHEAD;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.json.length + ENTRY_OVERHEAD;
    }
    if (size > this.maxBytes) return;
    // Room is made before the new entry goes in, so that it is never the one dropped.
    this.bytes += size;
    while (this.bytes > this.maxBytes) {
      const dropped = takeOldestUnused(this.entries);
      if (!dropped) break;
      this.bytes -= dropped.json.length + ENTRY_OVERHEAD;
    }
    this.entries.set(key, { version, json, eventsStart, eventsEnd, used: false });
  }

  /** Entries and the bytes they are counted as, hits and misses, events reused (metrics). */
  get usage(): { entries: number; bytes: number; hits: number; misses: number; eventsReused: number } {
    return { entries: this.entries.size, bytes: this.bytes, hits: this.hits, misses: this.misses, eventsReused: this.eventsReused };
  }
}
