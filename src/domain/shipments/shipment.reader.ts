import type { CarrierRegistry } from '../../carriers/registry.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { OrderRow } from '../../db/repositories/orders.repository.js';
import { eventStampOf, type ShipmentListFilter, type ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { Caller } from '../auth.service.js';
import { FieldErrorCollector, NotFoundError, ValidationError } from '../errors.js';
import { parseFilterTime } from './filter-time.js';
import { type PresenterLookups, presentShipment, type ShapeVersion, type ShipmentAggregate } from './shipment.presenter.js';
import { findShipment, type ShipmentIdentifier } from './shipment-identifier.js';
import { ShipmentJsonCache } from './shipment-json-cache.js';

export interface ListQuery {
  created_date_from?: string;
  created_date_to?: string;
  updated_date_from?: string;
  updated_date_to?: string;
  shipment_id?: string;
  order_id?: string;
  tracking_number?: string;
  carrier_reference?: string;
  status?: string;
  tag?: string;
  limit?: number;
  next_page?: string;
}

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

/** Serializers of the two shipment shapes, compiled from their response schemas. */
export type ShipmentSerializers = Record<ShapeVersion, (shipment: Record<string, unknown>) => string>;

/** How a v5.2 rendering ends, `pod_url` (signed anew for every response) being the shape's last field. */
const POD_URL_TAIL = '"pod_url":null}';
const NULL_TAIL_BYTES = Buffer.byteLength('null}');

/** Reading shipments: details in either shape, and the keyset-paginated list. */
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

  private readonly lookups: PresenterLookups = {
    phaseName: (key) => this.phaseName(key),
    carrier: (id) => (id ? (this.carriers.get(id)?.record ?? null) : null),
  };

  async details(caller: Caller, identifier: ShipmentIdentifier, version: ShapeVersion): Promise<Record<string, unknown>> {
    const row = await findShipment(this.repos, caller.accountId, identifier);
    return this.present(row, version);
  }

  async present(row: ShipmentRow, version: ShapeVersion): Promise<Record<string, unknown>> {
    const [aggregate] = await this.aggregates([row], version);
    return presentShipment(aggregate, version, this.lookups);
  }

  async list(caller: Caller, query: ListQuery): Promise<{ data: Record<string, unknown>[]; next_page: string | null }> {
    const { rows, next_page } = await this.listPage(caller, query);
    const aggregates = await this.aggregates(rows, 'v5');
    return { data: aggregates.map((a) => presentShipment(a, 'v5', this.lookups)), next_page };
  }

  /** `details` as the shipment's JSON (UTF-8), from the rendering cache when nothing it was made from changed. */
  async detailsJson(caller: Caller, identifier: ShipmentIdentifier, version: ShapeVersion): Promise<Buffer> {
    const row = await findShipment(this.repos, caller.accountId, identifier);
    return (await this.render([row], version))[0];
  }

  /** `present` as JSON (UTF-8), through the rendering cache (a shipment just changed is kept for the details that follow). */
  async presentJson(row: ShipmentRow, version: ShapeVersion): Promise<Buffer> {
    return (await this.render([row], version))[0];
  }

  /** `list` with each shipment as JSON (UTF-8), from the rendering cache where nothing it was made from changed. */
  async listJson(caller: Caller, query: ListQuery): Promise<{ data: Buffer[]; next_page: string | null }> {
    const { rows, next_page } = await this.listPage(caller, query);
    return { data: await this.render(rows, 'v5'), next_page };
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
   * The shipments as JSON. Row, order, documents and extras are read as for any rendering; the events of
   * a shipment with a kept rendering only by their stamp, and in full only where that rendering is out of date.
   */
  private async render(rows: ShipmentRow[], version: ShapeVersion): Promise<Buffer[]> {
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
        const aggregate = { row, order, events: rowEvents, documents: documents.get(row.id) ?? [], ...extras[i], podUrl: null };
        const json = this.serializers[version](presentShipment(aggregate, version, this.lookups));
        if (version === 'v5.2' && !json.endsWith(POD_URL_TAIL)) throw new Error('the v5.2 shape must end with pod_url');
        const text = Buffer.from(json);
        // Keyed by the events it was made from (they may be newer than the stamp read above).
        this.cache.set(version, { ...inputs[i], events: eventStampOf(rowEvents) }, text);
        texts[i] = text;
      }
    }
    if (version === 'v5.2') {
      for (const [i, text] of texts.entries()) {
        const podUrl = extras[i].podUrl;
        if (podUrl !== null) texts[i] = Buffer.concat([text.subarray(0, -NULL_TAIL_BYTES), Buffer.from(`${JSON.stringify(podUrl)}}`)]);
      }
    }
    return texts;
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

  private async aggregates(rows: ShipmentRow[], version: ShapeVersion): Promise<ShipmentAggregate[]> {
    const ids = rows.map((r) => r.id);
    const [events, orders, documents, extras] = await Promise.all([
      rows.length === 1
        ? this.repos.shipments.shownEvents(ids[0]).then((list) => new Map([[ids[0], list]]))
        : this.repos.shipments.shownEventsOf(ids),
      this.ordersOf(rows),
      this.extras.documents(rows),
      Promise.all(rows.map((row) => this.shapeExtras(row, version))),
    ]);
    return rows.map((row, i) => ({
      row,
      order: orders(row),
      events: events.get(row.id) ?? [],
      documents: documents.get(row.id) ?? [],
      ...extras[i],
    }));
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
      typeof cursor.filter === 'object'
    ) {
      return cursor;
    }
  } catch {
    // fall through to the validation error
  }
  throw ValidationError.at(['next_page'], 'Invalid page cursor: send back the next_page value of the previous response.');
}
