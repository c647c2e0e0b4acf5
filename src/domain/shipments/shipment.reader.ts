import type { CarrierRegistry } from '../../carriers/registry.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { ShipmentListFilter, ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { Caller } from '../auth.service.js';
import { FieldErrorCollector, NotFoundError, ValidationError } from '../errors.js';
import { parseEventTime } from '../tracking/event-time.js';
import { type PresenterLookups, presentShipment, type ShapeVersion, type ShipmentAggregate } from './shipment.presenter.js';
import { findShipment, type ShipmentIdentifier } from './shipment-identifier.js';

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

export const noExtras: ShipmentExtras = {
  documents: async (rows) => new Map(rows.map((r) => [r.id, []])),
  returns: async () => null,
  collectionPoint: async () => null,
  podUrl: async () => null,
};

/** Reading shipments: details in either shape, and the keyset-paginated list. */
export class ShipmentReader {
  extras: ShipmentExtras = noExtras;

  constructor(
    private readonly repos: Repositories,
    private readonly carriers: CarrierRegistry,
    private readonly phaseName: (key: string | null) => string | null,
  ) {}

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
    const cursor = query.next_page ? decodeCursor(query.next_page) : { before: null, limit: query.limit ?? 20, filter: filterFrom(query) };
    const rows = await this.repos.shipments.list(caller.accountId, cursor.filter, cursor.limit + 1, cursor.before);
    const page = rows.slice(0, cursor.limit);
    if (page.length === 0) throw new NotFoundError('No shipments match the filters');
    const aggregates = await this.aggregates(page, 'v5');
    const next =
      rows.length > cursor.limit ? encodeCursor({ before: page[page.length - 1].id, limit: cursor.limit, filter: cursor.filter }) : null;
    return { data: aggregates.map((a) => presentShipment(a, 'v5', this.lookups)), next_page: next };
  }

  private async aggregates(rows: ShipmentRow[], version: ShapeVersion): Promise<ShipmentAggregate[]> {
    const ids = rows.map((r) => r.id);
    const orderIds = [...new Set(rows.map((r) => r.order_row_id).filter((id): id is number => id !== null))];
    const [events, orders, documents] = await Promise.all([
      rows.length === 1
        ? this.repos.shipments.shownEvents(ids[0]).then((list) => new Map([[ids[0], list]]))
        : this.repos.shipments.shownEventsOf(ids),
      this.repos.orders.findByIds(orderIds),
      this.extras.documents(rows),
    ]);
    const orderById = new Map(orders.map((o) => [o.id, o]));
    return Promise.all(
      rows.map(async (row) => ({
        row,
        order: row.order_row_id !== null ? (orderById.get(row.order_row_id) ?? null) : null,
        events: events.get(row.id) ?? [],
        documents: documents.get(row.id) ?? [],
        returns: version === 'v5.2' ? await this.extras.returns(row) : null,
        collectionPoint: version === 'v5.2' ? await this.extras.collectionPoint(row) : null,
        podUrl: version === 'v5.2' ? await this.extras.podUrl(row) : null,
      })),
    );
  }
}

function filterFrom(query: ListQuery): ShipmentListFilter {
  const errors = new FieldErrorCollector();
  const instant = (field: keyof ListQuery): string | undefined => {
    const value = query[field] as string | undefined;
    if (value === undefined) return undefined;
    const parsed = parseEventTime(value);
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
