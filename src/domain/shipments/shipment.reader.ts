import type { CarrierRegistry } from '../../carriers/registry.js';
import { type Clock, systemClock } from '../../clock.js';
import type { ChangeWatch } from '../../db/change-watch.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { OrderRow } from '../../db/repositories/orders.repository.js';
import type { ShipmentRow, ShipmentStamp, ShownEventRow } from '../../db/repositories/shipments.repository.js';
import type { ListQuery } from '../../schemas/shipment-input.schemas.js';
import type { Caller } from '../auth.service.js';
import { NotFoundError } from '../errors.js';
import { type FirstPage, FirstPageMemo } from './first-page-memo.js';
import { decodeCursor, encodeCursor, filterFrom, refuseOtherFilters } from './list-cursor.js';
import { ListedLately } from './listed-lately.js';
import { keptRendering, type RenderedShipment, type ShipmentJson, type ShipmentPage } from './rendered-shipment.js';
import { type PresenterLookups, presentShipment, type ShapeVersion } from './shipment.presenter.js';
import { ShipmentHeadMemo, type ShipmentHeads } from './shipment-head-memo.js';
import { findShipmentHead, type ShipmentIdentifier } from './shipment-identifier.js';
import { ShipmentJsonCache } from './shipment-json-cache.js';
import type { NewShipmentRenderings } from './shipments.service.js';

/** Extra parts of a shipment that other capabilities (returns, documents, tracking) contribute. */
export interface ShipmentExtras {
  documents(rows: ShipmentRow[]): Promise<Map<number, Record<string, unknown>[]>>;
  returns(row: ShipmentRow): Promise<Record<string, unknown> | null>;
  collectionPoint(row: ShipmentRow): Promise<Record<string, unknown> | null>;
  podUrl(row: Pick<ShipmentRow, 'pod_file' | 'shipment_uuid'>): Promise<string | null>;
}

/** What a transaction that has committed knows of the shipment row it wrote (`ShipmentReader.render`). */
export interface WrittenRow {
  /** The version its writes left, read after its last write. */
  at?: number;
  /** A version whose events are those the shipment has now (`ShipmentsRepository.versionWhileLocked`). */
  unchangedEventsAt?: number;
  /** The object `row.body` is the JSON text of. */
  body?: Record<string, unknown>;
}

/**
 * Serializers of the two shipment shapes, compiled from their response schemas without the fields made anew
 * for every answer (`RenderedShipment`): a presented shipment in, one JSON object out, in parts.
 */
export type ShipmentSerializers = Record<ShapeVersion, (shipment: Record<string, unknown>) => ShipmentJson>;

/**
 * Reading shipments: one by its identifier, a row in hand, or a page of the keyset-paginated list, each
 * rendered through one path and its cache (`RenderedShipment`) for the API, the console and webhooks alike.
 */
export class ShipmentReader implements NewShipmentRenderings {
  readonly cache: ShipmentJsonCache;
  /** Heads by identifier: kept while the database tells nothing changed them, when it can tell and renderings are kept. */
  readonly heads: ShipmentHeads;
  /** Whether renderings are kept at all. */
  private readonly keeps: boolean;
  /** The accounts this process has answered a list page for in the last 15 minutes. */
  private readonly listed: ListedLately;
  /** First list pages kept while the database tells nothing changed them, when it can tell and renderings are kept. */
  private readonly firstPages: FirstPageMemo | null;

  constructor(
    private readonly repos: Repositories,
    private readonly carriers: CarrierRegistry,
    private readonly phaseName: (key: string | null) => string | null,
    private readonly serializers: ShipmentSerializers,
    cacheBytes: number,
    private readonly extras: ShipmentExtras,
    changes: ChangeWatch | null = null,
    clock: Clock = systemClock,
  ) {
    this.listed = new ListedLately(clock);
    this.cache = new ShipmentJsonCache(cacheBytes);
    this.keeps = cacheBytes > 0;
    this.heads = changes && cacheBytes > 0 ? new ShipmentHeadMemo(repos.shipments, changes) : repos.shipments;
    this.firstPages = changes && cacheBytes > 0 ? new FirstPageMemo(changes) : null;
  }

  /** Heads answered without a read since start (metrics). */
  get headsUnread(): number {
    return this.heads instanceof ShipmentHeadMemo ? this.heads.hits : 0;
  }

  /** First list pages answered without a read since start (metrics). */
  get firstPagesUnread(): number {
    return this.firstPages?.hits ?? 0;
  }

  /** The same reader keeping nothing, so every shipment is read and rendered anew (what the cache is checked against). */
  uncached(): ShipmentReader {
    return new ShipmentReader(this.repos, this.carriers, this.phaseName, this.serializers, 0, this.extras);
  }

  private readonly lookups: PresenterLookups = {
    phaseName: (key) => this.phaseName(key),
    carrier: (id) => (id ? (this.carriers.get(id)?.record ?? null) : null),
  };

  /**
   * Keeps the v5 rendering (a list page's) of a shipment whose create has committed, made from its row and order as
   * the create wrote them, at version 0: the version a shipment's insert gives it, which every later write to what
   * the rendering shows bumps (0026). Events, documents and a return ticket are written after the row, each bumping
   * the version, so at 0 it has none; its order must be one the create made (or none): no transaction that could not
   * see the shipment can have changed it before the commit (on SQLite, one that shared the create's commit saw it,
   * and bumped it). A create that wrote more in its transaction left a later version, and this rendering is never
   * answered. Only for an account this process has answered a list page for lately: the others
   * would not read it, and it would push renderings they do read out of the cache.
   */
  keepCreated(row: ShipmentRow, order: OrderRow | null, body: Record<string, unknown>): void {
    if (!this.keeps || !this.listed.has(row.account_id)) return;
    const aggregate = { row, order, events: [], documents: [], returns: null, collectionPoint: null, body };
    this.cache.set('v5', row.id, 0, keptRendering('v5', this.serializers.v5(presentShipment(aggregate, 'v5', this.lookups))));
  }

  /** The account's shipment with this identifier. */
  async details(caller: Caller, identifier: ShipmentIdentifier, version: ShapeVersion): Promise<RenderedShipment> {
    const head = await findShipmentHead(this.heads, caller.accountId, identifier);
    const [rendered] = await this.renderStamps([head], version, () => this.extras.podUrl(head));
    if (!rendered) throw new NotFoundError('No shipment matches the identifier');
    return rendered;
  }

  /**
   * The whole v5.2 details answer of the account's shipment with this UUID, when it can be given from what this
   * process keeps without reading or waiting: the shipment's head unchanged since it was read (ShipmentHeadMemo),
   * its rendering kept at the head's version, and no proof of delivery (whose link is signed for every answer).
   * null otherwise: `details` answers then. The same bytes `details` would answer.
   */
  keptDetails(accountId: number, shipmentUuid: string): Buffer | null {
    if (!(this.heads instanceof ShipmentHeadMemo)) return null;
    const head = this.heads.keptHead(accountId, 'shipment_uuid', shipmentUuid);
    if (!head || head.pod_file) return null;
    return this.cache.get('v5.2', head.id, head.version) ?? null;
  }

  /**
   * The account's first list page without filters, of `limit` shipments, when every shipment on it has its rendering
   * kept at the version its stamp names: the page `list` would answer (the same stamps, read the same way). null when
   * one is not kept: `list` then answers, and renders it.
   */
  async keptFirstPage(accountId: number, limit: number): Promise<ShipmentPage | null> {
    if (!this.keeps) return null;
    this.listed.note(accountId);
    const { stamps, next_page } = this.firstPages?.get(accountId, limit) ?? (await this.readFirstPage(accountId, limit));
    const texts = this.cache.getAll('v5', stamps);
    if (!texts) return null;
    return { shipments: texts.map((json) => ({ version: 'v5', json, podUrl: null })), next_page };
  }

  /** The account's first page read now, and kept when the database can tell later that nothing changed it. */
  private async readFirstPage(accountId: number, limit: number): Promise<FirstPage> {
    const mark = this.firstPages?.mark() ?? null;
    const { stamps, next_page, read } = await this.listPage(accountId, { limit });
    if (mark)
      this.firstPages?.keep(
        accountId,
        limit,
        mark,
        { stamps, next_page },
        read.map((stamp) => stamp.id),
      );
    return { stamps, next_page };
  }

  /**
   * A shipment whose row the caller holds from a transaction that has committed, rendered from that row and parts
   * read now. Kept when the caller knows the version that transaction's writes left (`at`, read after its last write):
   * the row is that version and the parts at least that version, as the cache asks, so the details that follow
   * are answered from it. `unchangedEventsAt`, when given, is a version of the shipment whose events that transaction
   * did not change and no other could have meanwhile (`ShipmentsRepository.versionWhileLocked`): a rendering kept at
   * it gives its events' bytes as they are, and the events are not read, presented nor written again. `body`, when
   * given, is the object that transaction wrote `row.body` from: it is not parsed again.
   */
  async render(row: ShipmentRow, version: ShapeVersion, written: WrittenRow = {}): Promise<RenderedShipment> {
    const { at, unchangedEventsAt, body } = written;
    const events = unchangedEventsAt === undefined ? undefined : this.cache.keptEvents(version, row.id, unchangedEventsAt);
    return (await this.renderRows([row], version, at === undefined ? null : new Map([[row.id, at]]), { events, body }))[0];
  }

  /** A page of the account's shipments matching the query's filters, in the v5 shape. */
  async list(caller: Caller, query: ListQuery): Promise<ShipmentPage> {
    this.listed.note(caller.accountId);
    const { stamps, next_page } = await this.listPage(caller.accountId, query);
    return { shipments: await this.renderStamps(stamps, 'v5', null), next_page };
  }

  /** A page of stamps, the link to the next, and every stamp read for them (the page's and the next one's). */
  private async listPage(accountId: number, query: ListQuery): Promise<FirstPage & { read: ShipmentStamp[] }> {
    const cursor = query.next_page
      ? refuseOtherFilters(decodeCursor(query.next_page), query)
      : { before: null, limit: query.limit ?? 20, filter: filterFrom(query) };
    const stamps = await this.repos.shipments.listStamps(accountId, cursor.filter, cursor.limit + 1, cursor.before);
    const page = stamps.slice(0, cursor.limit);
    if (page.length === 0) throw new NotFoundError('No shipments match the filters');
    const next =
      stamps.length > cursor.limit ? encodeCursor({ before: page[page.length - 1].id, limit: cursor.limit, filter: cursor.filter }) : null;
    return { stamps: page, next_page: next, read: stamps };
  }

  /**
   * The shipments these stamps name, the one way the API reads them: a kept rendering made at the stamp's version is
   * sent as it is; the others are read whole (after their stamps, so never older than the versions they are kept
   * at), rendered and kept. A shipment deleted since its stamp was read is left out. A kept rendering in the v5.2
   * shape (one shipment's details, never a page) gets the proof of delivery's link from `podUrl`.
   */
  private async renderStamps(
    stamps: ShipmentStamp[],
    version: ShapeVersion,
    podUrl: (() => Promise<string | null>) | null,
  ): Promise<RenderedShipment[]> {
    const texts: Array<Buffer | undefined> = stamps.map((stamp) => this.cache.get(version, stamp.id, stamp.version));
    const missed = stamps.filter((_, i) => texts[i] === undefined);
    const made = new Map<number, RenderedShipment>();
    if (missed.length > 0) {
      const rows =
        missed.length === 1
          ? [await this.repos.shipments.findById(missed[0].id)].filter((row): row is ShipmentRow => row !== undefined)
          : await this.repos.shipments.findByIds(missed.map((stamp) => stamp.id));
      const versions = new Map(missed.map((stamp) => [stamp.id, stamp.version]));
      const rendered = await this.renderRows(rows, version, versions);
      for (let i = 0; i < rows.length; i++) made.set(rows[i].id, rendered[i]);
    }
    const shipments: RenderedShipment[] = [];
    for (let i = 0; i < stamps.length; i++) {
      const json = texts[i];
      if (json === undefined) {
        const rendered = made.get(stamps[i].id);
        if (rendered) shipments.push(rendered);
      } else {
        shipments.push({ version, json, podUrl: version === 'v5.2' && podUrl ? await podUrl() : null });
      }
    }
    return shipments;
  }

  /**
   * Renders these rows with their orders, events, documents and extras, read now; keeps each rendering at the
   * version given for its row, when one is. `one`, for one row only: `events`, its events' bytes as a rendering in
   * this shape holds them (the events are then not read), and `body`, the object its body was written from.
   */
  private async renderRows(
    rows: ShipmentRow[],
    version: ShapeVersion,
    versions: Map<number, number> | null,
    one: { events?: Uint8Array; body?: Record<string, unknown> } = {},
  ): Promise<RenderedShipment[]> {
    const keptEvents = one.events;
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const [orders, documents, extras, events] = await Promise.all([
      this.ordersOf(rows),
      this.extras.documents(rows),
      Promise.all(rows.map((row) => this.shapeExtras(row, version))),
      keptEvents
        ? new Map<number, ShownEventRow[]>()
        : ids.length === 1
          ? this.repos.shipments.shownEvents(ids[0]).then((shown) => new Map([[ids[0], shown]]))
          : this.repos.shipments.shownEventsOf(ids),
    ]);
    return rows.map((row, i) => {
      const { returns, collectionPoint, podUrl } = extras[i];
      const aggregate = {
        row,
        order: orders(row),
        events: events.get(row.id) ?? [],
        documents: documents.get(row.id) ?? [],
        returns,
        collectionPoint,
        body: one.body,
      };
      const object: ShipmentJson = this.serializers[version](presentShipment(aggregate, version, this.lookups));
      const kept = keptRendering(version, object, keptEvents);
      const at = versions?.get(row.id);
      if (at !== undefined) this.cache.set(version, row.id, at, kept);
      return { version, json: kept.json, podUrl };
    });
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
