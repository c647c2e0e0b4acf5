import type { CarrierRegistry } from '../../carriers/registry.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { OrderRow } from '../../db/repositories/orders.repository.js';
import { eventStampOf, type ShipmentListFilter, type ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { ListQuery } from '../../schemas/shipment-input.schemas.js';
import type { Caller } from '../auth.service.js';
import { FieldErrorCollector, NotFoundError, ValidationError } from '../errors.js';
import { parseFilterTime } from './filter-time.js';
import type { RenderedShipment, ShipmentPage } from './rendered-shipment.js';
import { type PresenterLookups, presentShipment, type ShapeVersion } from './shipment.presenter.js';
import { findShipment, type ShipmentIdentifier } from './shipment-identifier.js';
import { ShipmentJsonCache } from './shipment-json-cache.js';

interface Cursor {
  before: number;
  limit: number;
  filter: ShipmentListFilter;
}

/** Extra parts of a shipment that other capabilities (returns, documents, tracking) contribute. */
export interface ShipmentExtras {
  documents(rows: ShipmentRow[]): Promise<Map<number, Record<string, unknown>[]>>;
  returns(row: ShipmentRow): Promise<Record<string, unknown> | null>;
  collectionPoint(row: ShipmentRow): Promise<Record<string, unknown> | null>;
  podUrl(row: ShipmentRow): Promise<string | null>;
}

/**
 * Serializers of the two shipment shapes, compiled from their response schemas without the fields made anew
 * for every answer (`RenderedShipment`): a presented shipment in, one JSON object out.
 */
export type ShipmentSerializers = Record<ShapeVersion, (shipment: Record<string, unknown>) => string>;

/**
 * Reading shipments: one by its identifier, a row in hand, or a page of the keyset-paginated list, each
 * rendered through one path and its cache (`RenderedShipment`) for the API, the console and webhooks alike.
 */
export class ShipmentReader {
  readonly cache: ShipmentJsonCache;

  constructor(
    private readonly repos: Repositories,
    private readonly carriers: CarrierRegistry,
    private readonly phaseName: (key: string | null) => string | null,
    private readonly serializers: ShipmentSerializers,
    cacheBytes: number,
    private readonly extras: ShipmentExtras,
  ) {
    this.cache = new ShipmentJsonCache(cacheBytes);
  }

  /** The same reader keeping no renderings, so every shipment is rendered anew (what the cache is checked against). */
  uncached(): ShipmentReader {
    return new ShipmentReader(this.repos, this.carriers, this.phaseName, this.serializers, 0, this.extras);
  }

  private readonly lookups: PresenterLookups = {
    phaseName: (key) => this.phaseName(key),
    carrier: (id) => (id ? (this.carriers.get(id)?.record ?? null) : null),
  };

  /** The account's shipment with this identifier. */
  async details(caller: Caller, identifier: ShipmentIdentifier, version: ShapeVersion): Promise<RenderedShipment> {
    const row = await findShipment(this.repos, caller.accountId, identifier);
    return (await this.renderAll([row], version))[0];
  }

  /**
   * A shipment whose row the caller holds, read after its transaction committed (a shipment just changed is
   * then kept for the details that follow).
   */
  async render(row: ShipmentRow, version: ShapeVersion): Promise<RenderedShipment> {
    return (await this.renderAll([row], version))[0];
  }

  /** A page of the account's shipments matching the query's filters, in the v5 shape. */
  async list(caller: Caller, query: ListQuery): Promise<ShipmentPage> {
    const { rows, next_page } = await this.listPage(caller, query);
    return { shipments: await this.renderAll(rows, 'v5'), next_page };
  }

  private async listPage(caller: Caller, query: ListQuery): Promise<{ rows: ShipmentRow[]; next_page: string | null }> {
    const cursor = query.next_page ? decodeCursor(query.next_page) : { before: null, limit: query.limit ?? 20, filter: filterFrom(query) };
    const rows = await this.repos.shipments.list(caller.accountId, cursor.filter, cursor.limit + 1, cursor.before);
    const page = rows.slice(0, cursor.limit);
    if (page.length === 0) throw new NotFoundError('No shipments match the filters');
    const next =
      rows.length > cursor.limit ? encodeCursor({ before: page[page.length - 1].id, limit: cursor.limit, filter: cursor.filter }) : null;
    return { rows: page, next_page: next };
  }

  /**
   * The shipments rendered, the one way every entry point goes. Row, order, documents and extras are read as for
   * any rendering; the events of a shipment with a kept rendering only by their stamp, and in full only where
   * that rendering is out of date.
   */
  private async renderAll(rows: ShipmentRow[], version: ShapeVersion): Promise<RenderedShipment[]> {
    const kept = rows.filter((row) => this.cache.holds(version, row.id)).map((row) => row.id);
    const [stamps, orders, documents, extras] = await Promise.all([
      this.repos.shipments.eventStamps(kept),
      this.ordersOf(rows),
      this.extras.documents(rows),
      Promise.all(rows.map((row) => this.shapeExtras(row, version))),
    ]);
    const texts: Buffer[] = [];
    const missed: number[] = [];
    const inputs = rows.map((row, i) => {
      const stamp = stamps.get(row.id);
      const input = {
        row,
        order: orders(row),
        events: stamp ?? '',
        documents: JSON.stringify(documents.get(row.id) ?? []),
        extras: version === 'v5.2' ? JSON.stringify([extras[i].returns, extras[i].collectionPoint]) : '',
      };
      let cached: Buffer | undefined;
      if (stamp === undefined) this.cache.missed();
      else cached = this.cache.get(version, input);
      if (cached === undefined) missed.push(i);
      else texts[i] = cached;
      return input;
    });
    if (missed.length > 0) {
      const missedIds = missed.map((i) => rows[i].id);
      const events =
        missedIds.length === 1
          ? new Map([[missedIds[0], await this.repos.shipments.shownEvents(missedIds[0])]])
          : await this.repos.shipments.shownEventsOf(missedIds);
      for (const i of missed) {
        const { row, order } = inputs[i];
        const rowEvents = events.get(row.id) ?? [];
        const { returns, collectionPoint } = extras[i];
        const aggregate = { row, order, events: rowEvents, documents: documents.get(row.id) ?? [], returns, collectionPoint };
        const text = Buffer.from(this.serializers[version](presentShipment(aggregate, version, this.lookups)));
        // Keyed by the events it was made from (they may be newer than the stamp read above).
        this.cache.set(version, { ...inputs[i], events: eventStampOf(rowEvents) }, text);
        texts[i] = text;
      }
    }
    return texts.map((json, i) => ({ version, json, podUrl: extras[i].podUrl }));
  }

  private async shapeExtras(row: ShipmentRow, version: ShapeVersion) {
    if (version === 'v5') return { returns: null, collectionPoint: null, podUrl: null };
    const [returns, collectionPoint, podUrl] = await Promise.all([
      this.extras.returns(row),
      this.extras.collectionPoint(row),
      this.extras.podUrl(row),
    ]);
    return { returns, collectionPoint, podUrl };
  }

  /** The orders of these shipments, by shipment. */
  private async ordersOf(rows: ShipmentRow[]): Promise<(row: ShipmentRow) => OrderRow | null> {
    const orderIds = [...new Set(rows.map((r) => r.order_row_id).filter((id): id is number => id !== null))];
    const orderById = new Map((await this.repos.orders.findByIds(orderIds)).map((o) => [o.id, o]));
    return (row) => (row.order_row_id !== null ? (orderById.get(row.order_row_id) ?? null) : null);
  }
}

function filterFrom(query: ListQuery): ShipmentListFilter {
  const errors = new FieldErrorCollector();
  const instant = (field: keyof ListQuery): string | undefined => {
    const value = query[field] as string | undefined;
    if (value === undefined) return undefined;
    const parsed = parseFilterTime(value);
    if (!parsed.ok) {
      errors.add([field], 'Enter an ISO 8601 date or date-time.');
      return undefined;
    }
    // A date alone as an upper bound covers that whole day.
    if (parsed.time.precision === 'date' && field.endsWith('_to')) return `${parsed.time.utc.slice(0, 10)}T23:59:59.999Z`;
    return parsed.time.utc;
  };
  const filter: ShipmentListFilter = {
    createdFrom: instant('created_date_from'),
    createdTo: instant('created_date_to'),
    updatedFrom: instant('updated_date_from'),
    updatedTo: instant('updated_date_to'),
    shipmentId: query.shipment_id,
    orderId: query.order_id,
    trackingNumber: query.tracking_number,
    carrierReference: query.carrier_reference,
    status: query.status,
    tag: query.tag,
  };
  errors.throwIfAny();
  return filter;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string): Cursor & { before: number } {
  try {
    const cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor;
    if (
      Number.isInteger(cursor.before) &&
      Number.isInteger(cursor.limit) &&
      cursor.limit >= 1 &&
      cursor.limit <= 100 &&
      isListFilter(cursor.filter)
    ) {
      return cursor;
    }
  } catch {
    // fall through to the validation error
  }
  throw ValidationError.at(['next_page'], 'Invalid page cursor: send back the next_page value of the previous response.');
}

const FILTER_TIMES = new Set(['createdFrom', 'createdTo', 'updatedFrom', 'updatedTo']);
const FILTER_TEXTS = new Set(['shipmentId', 'orderId', 'trackingNumber', 'carrierReference', 'status', 'tag']);
/** The instants a filter holds, as `filterFrom` writes them (UTC, milliseconds). */
const FILTER_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Whether a cursor's filter is one `filterFrom` can have made: an object of its keys only, each a string (an
 * instant for the times). A cursor is the client's to send back, so an edited one is refused like a garbled one.
 */
function isListFilter(value: unknown): value is ShipmentListFilter {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(([key, field]) => {
    if (field === undefined) return true;
    if (typeof field !== 'string') return false;
    if (FILTER_TIMES.has(key)) return FILTER_INSTANT.test(field);
    return FILTER_TEXTS.has(key);
  });
}
