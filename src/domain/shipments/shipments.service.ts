import type { Insertable, Updateable } from 'kysely';
import { checkTrackingNumber } from '../../carriers/detect/index.js';
import type { Clock } from '../../clock.js';
import { SHIPMENT_STATUS } from '../../core/shipment-status.js';
import { timeOrderedUuid } from '../../core/time-ordered-uuid.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { OrderRow } from '../../db/repositories/orders.repository.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { ShipmentsTable } from '../../db/schema.js';
import type { ShipmentWrite } from '../../schemas/shipment-input.schemas.js';
import { randomToken } from '../../secrets.js';
import type { Caller } from '../auth.service.js';
import { shownExpectedDelivery } from '../delivery/expected-delivery.js';
import { FieldErrorCollector, type FieldErrors, NotFoundError, ValidationError } from '../errors.js';
import type { EventSink } from '../webhooks/webhook-outbox.js';
import { forgetCarrierOfRecord } from './carrier-of-record.js';
import { findShipment, type ShipmentIdentifier } from './shipment-identifier.js';
import { type CarrierLookup, checkShipmentInput, withBlankAsNull } from './shipment-input.js';
import { type ConfiguredCarrier, detectionNote, detectionNoteOf, routeTrackingNumber, withDetectionNote } from './tracking-detection.js';
import type { TrackingStops } from './tracking-stops.js';

/** Fields kept in the shipment's JSON body (everything that is not a column of its own), in the order it is written. */
export const BODY_FIELDS = [
  'shipment_reference',
  'additional_reference',
  'recipient_address',
  'sender_address',
  'to_address',
  'from_address',
  'return_address',
  'tags',
  'notification_email',
  'notification_phone',
  'shipment_value',
  'total_shipping_cost',
  'cod_value',
  'shipping_costs',
  'dimensions',
  'weight',
  'expected_delivery',
  'linked_shipments',
  'payment_type',
  'item_count',
  'packaging_type',
  'note',
  'shipping_service',
  'description_of_goods',
  'handling_instructions',
  'sales_channel',
  'additional_info',
  'line_items',
  'parcel_recipient_information',
] as const;

export interface ShipmentCreatedView {
  shipment_uuid: string;
  order_uuid: string | null;
  documents: unknown[];
  created_date: string;
}

/** A changed shipment's row as committed, and the version its change left (undefined only if it has no version row). */
export interface UpdatedShipment {
  row: ShipmentRow;
  version: number | undefined;
  /** A version of the shipment whose events are those it has now: the update writes none (see `ShipmentReader.render`). */
  unchangedEventsAt: number | undefined;
  /** The object `row.body` is the JSON text of. */
  body: Record<string, unknown>;
}

/**
 * Where a shipment just created is kept rendered (the reader's cache): a new shipment is on its account's first list
 * page from now on, and its row and order are in hand.
 */
export interface NewShipmentRenderings {
  /** `body` is the object `shipment.body` is the JSON text of, so that it is not parsed again. */
  keepCreated(shipment: ShipmentRow, order: OrderRow | null, body: Record<string, unknown>): void;
}

/** Options a caller inside the service (returns, imports) may set beyond the API's fields. */
export interface CreateOptions {
  source?: string;
  shipmentType?: 'return' | null;
}

export interface CreateManyOptions extends CreateOptions {
  /** Inputs whose shipment_id the account already has (or that an earlier input repeats) come back as `exists`. */
  skipExisting?: boolean;
}

/** What became of one input of `createManyIn`, in the order given. */
export type CreateManyOutcome =
  | { result: 'created'; shipmentRowId: number; shipmentUuid: string }
  | { result: 'exists' }
  | { result: 'invalid'; errors: FieldErrors };

const DUPLICATE_SHIPMENT_ID = 'A shipment with this shipment_id already exists in the account.';

/** Creating and changing shipments: the rules of the Shipment record. */
export class ShipmentsService {
  constructor(
    private readonly repos: Repositories,
    /** Where created and changed shipments are announced (webhooks). */
    private readonly events: EventSink,
    private readonly clock: Clock,
    /** Told when an update ends the tracking of a number (another number or carrier), in the same transaction. */
    private readonly stops: TrackingStops,
    private readonly renderings: NewShipmentRenderings | null = null,
  ) {}

  async create(caller: Caller, input: ShipmentWrite & { shipment_id: string }, options: CreateOptions = {}): Promise<ShipmentCreatedView> {
    const created = await this.repos.transaction((repos) => this.createIn(repos, caller, input, options));
    // Committed. An order that existed before this create is left out: on PostgreSQL a transaction that changed it
    // meanwhile did not see this shipment, so did not bump its version (docs/decisions.md); a list reads it.
    if (created.order === null || created.orderCreated) this.keepRendering(created.shipment, created.order, created.body);
    return {
      shipment_uuid: created.shipment.shipment_uuid,
      order_uuid: created.order?.order_uuid ?? null,
      documents: [],
      created_date: created.shipment.created_at,
    };
  }

  /**
   * Keeps a committed create's rendering for the list. The create is answered whatever happens here: a rendering that
   * fails fails again where a list page makes it, and the client that retried a create it saw fail would be told its
   * shipment_id is taken.
   */
  private keepRendering(shipment: ShipmentRow, order: OrderRow | null, body: Record<string, unknown>): void {
    try {
      this.renderings?.keepCreated(shipment, order, body);
    } catch {
      // The list renders the shipment itself.
    }
  }

  /** Creates a shipment inside a transaction the caller holds (returns create theirs with a ticket). */
  async createIn(
    repos: Repositories,
    caller: Caller,
    input: ShipmentWrite & { shipment_id: string },
    options: CreateOptions = {},
  ): Promise<{ shipment: ShipmentRow; order: OrderRow | null; orderCreated: boolean; body: Record<string, unknown> }> {
    input = withBlankAsNull(input);
    const errors = new FieldErrorCollector();
    const lookup = carrierLookup(repos, caller.accountId);
    const normalized = await this.check(lookup, input, errors);
    const tracking = await resolveTracking(lookup, accountCarriers(repos, caller.accountId), input, errors);
    if (!input.order_id) this.refuseOrderFieldsWithoutOrder(input, errors);
    // A taken shipment_id is refused by the insert's unique index below; it is looked up here only to be named
    // beside other errors (one read fewer for every valid create).
    if (!errors.empty && (await repos.shipments.head(caller.accountId, 'shipment_id', input.shipment_id))) {
      errors.add(['shipment_id'], DUPLICATE_SHIPMENT_ID);
    }
    errors.throwIfAny();

    const now = this.clock.now().toISOString();
    const { order, created: orderCreated } = input.order_id
      ? await this.upsertOrder(repos, caller.accountId, input, now)
      : { order: null, created: false };
    const carrierId = await carrierIdOf(lookup, tracking.carrierReference);
    const [routed, shown] = withTracking(input, normalized, tracking);
    const body = pickBody(shown, {});
    try {
      const shipment = await repos.shipments.insert(
        newShipmentRow(caller.accountId, routed, body, { carrierId, orderRowId: order?.id ?? null, now, options }),
      );
      await repos.shipments.insertTags(
        [...new Set(normalized.tags ?? [])].map((tag) => ({ shipment_row_id: shipment.id, account_id: caller.accountId, tag })),
      );
      await this.events.emit(repos, { accountId: caller.accountId, type: 'shipment.created', shipmentRowId: shipment.id });
      return { shipment, order, orderCreated, body };
    } catch (error) {
      if (isUniqueViolation(error)) throw ValidationError.at(['shipment_id'], DUPLICATE_SHIPMENT_ID);
      throw error;
    }
  }

  /**
   * Creates many shipments in the caller's transaction with the rules of `createIn`, each input refused
   * alone with its field errors, and the valid ones written together: one look-up of existing shipment_ids,
   * orders and shipments in multi-row statements, carrier configurations read once. A database error
   * (e.g. a shipment_id created concurrently) fails the whole call; the caller then falls back to `createIn`.
   */
  async createManyIn(
    repos: Repositories,
    caller: Caller,
    inputs: Array<ShipmentWrite & { shipment_id: string }>,
    options: CreateManyOptions = {},
  ): Promise<CreateManyOutcome[]> {
    inputs = inputs.map(withBlankAsNull);
    const accountId = caller.accountId;
    const lookup = carrierLookup(repos, accountId);
    const carriers = accountCarriers(repos, accountId);
    const existing = await repos.shipments.existingShipmentIds(
      accountId,
      inputs.map((input) => input.shipment_id),
    );
    const outcomes: CreateManyOutcome[] = [];
    const valid: Array<{
      index: number;
      input: ShipmentWrite & { shipment_id: string };
      normalized: ShipmentWrite;
      tracking: ResolvedTracking;
    }> = [];
    for (const [index, input] of inputs.entries()) {
      if (options.skipExisting && existing.has(input.shipment_id)) {
        outcomes.push({ result: 'exists' });
        continue;
      }
      const errors = new FieldErrorCollector();
      const normalized = await this.check(lookup, input, errors);
      const tracking = await resolveTracking(lookup, carriers, input, errors);
      if (!input.order_id) this.refuseOrderFieldsWithoutOrder(input, errors);
      if (existing.has(input.shipment_id)) errors.add(['shipment_id'], 'A shipment with this shipment_id already exists in the account.');
      if (!errors.empty) {
        outcomes.push({ result: 'invalid', errors: errors.result() });
        continue;
      }
      // A later input with the same shipment_id meets this one as existing.
      existing.add(input.shipment_id);
      outcomes.push({ result: 'exists' });
      valid.push({ index, input, normalized, tracking });
    }
    if (valid.length === 0) return outcomes;

    const now = this.clock.now().toISOString();
    const orders = await this.upsertOrders(
      repos,
      accountId,
      valid.map((v) => v.input),
      now,
    );
    const rows: Insertable<ShipmentsTable>[] = [];
    for (const { input, normalized, tracking } of valid) {
      const carrierId = await carrierIdOf(lookup, tracking.carrierReference);
      const orderRowId = input.order_id ? (orders.get(input.order_id)?.id ?? null) : null;
      const [routed, shown] = withTracking(input, normalized, tracking);
      rows.push(newShipmentRow(accountId, routed, pickBody(shown, {}), { carrierId, orderRowId, now, options }));
    }
    const inserted = await repos.shipments.insertMany(rows);
    const tags: Array<{ shipment_row_id: number; account_id: number; tag: string }> = [];
    valid.forEach(({ index, normalized }, k) => {
      const { id, shipment_uuid } = inserted[k];
      outcomes[index] = { result: 'created', shipmentRowId: id, shipmentUuid: shipment_uuid };
      for (const tag of new Set(normalized.tags ?? [])) tags.push({ shipment_row_id: id, account_id: accountId, tag });
    });
    await repos.shipments.insertTags(tags);
    await this.events.emitMany(
      repos,
      inserted.map(({ id }) => ({ accountId, type: 'shipment.created', shipmentRowId: id })),
    );
    return outcomes;
  }

  /** `upsertOrder` for the orders of many inputs, in input order: the first input of an order_id creates it. */
  private async upsertOrders(repos: Repositories, accountId: number, inputs: ShipmentWrite[], now: string): Promise<Map<string, OrderRow>> {
    const firstOf = new Map<string, ShipmentWrite>();
    for (const input of inputs) if (input.order_id && !firstOf.has(input.order_id)) firstOf.set(input.order_id, input);
    if (firstOf.size === 0) return new Map();
    const found = await repos.orders.insertOrGetMany(
      accountId,
      [...firstOf].map(([orderId, input]) => ({
        account_id: accountId,
        order_uuid: timeOrderedUuid(),
        order_id: orderId,
        order_reference: input.order_reference ?? null,
        source_type: input.order_source_type ?? null,
        source_name: input.order_source_name ?? null,
        created_at: now,
        updated_at: now,
      })),
    );
    const orders = new Map<string, OrderRow>();
    for (const input of inputs) {
      if (!input.order_id) continue;
      const entry = found.get(input.order_id) as { order: OrderRow; created: boolean };
      // As one create after another: an input that did not create its order updates the order's given fields.
      const createdByThis = entry.created && firstOf.get(input.order_id) === input;
      if (!createdByThis && hasOrderFields(input)) entry.order = await this.updateOrderFields(repos, entry.order.id, input, now);
      orders.set(input.order_id, entry.order);
    }
    return orders;
  }

  /**
   * Changes a shipment; answers its row as committed and the version the change left (the route renders the row
   * and keeps the rendering at that version, for the details that follow).
   */
  async update(caller: Caller, identifier: ShipmentIdentifier, input: ShipmentWrite): Promise<UpdatedShipment> {
    input = withBlankAsNull(input);
    return this.repos.transaction(async (repos) => {
      // The body written is built on the one read here: read under the row's lock, so that a writer that changed
      // it meanwhile (the poller, a booking) has committed first and its change is kept, not written over.
      const current = await repos.shipments.locked(await findShipment(repos, caller.accountId, identifier));
      if (!current) throw new NotFoundError('No shipment matches the identifier');
      // An update writes no tracking events: at the version its writes leave they are those of this one.
      const unchangedEventsAt = await repos.shipments.versionWhileLocked(current.id);
      const errors = new FieldErrorCollector();
      if (typeof input.shipment_id === 'string' && input.shipment_id !== current.shipment_id) {
        errors.add(['shipment_id'], 'shipment_id cannot change after creation.');
      }
      // Read-only, accepted so that the details can be sent back: another shipment's details are not this one's.
      if (input.shipment_uuid !== undefined && input.shipment_uuid.toLowerCase() !== current.shipment_uuid) {
        errors.add(['shipment_uuid'], 'shipment_uuid cannot change.');
      }
      const lookup = carrierLookup(repos, caller.accountId);
      const normalized = await this.check(lookup, input, errors);
      if (input.order_id === undefined || input.order_id === null) {
        if (current.order_row_id === null || input.order_id === null) this.refuseOrderFieldsWithoutOrder(input, errors);
      }
      // Tracking is decided again when the request sets the number or the carrier, as on create.
      const trackingGiven = input.tracking_number !== undefined || input.carrier_reference !== undefined;
      const trackingNumber = input.tracking_number !== undefined ? input.tracking_number : current.tracking_number;
      const tracking = trackingGiven
        ? await resolveTracking(
            lookup,
            accountCarriers(repos, caller.accountId),
            {
              tracking_number: trackingNumber,
              carrier_reference: input.carrier_reference !== undefined ? input.carrier_reference : current.carrier_reference,
            },
            errors,
          )
        : null;
      errors.throwIfAny();

      const now = this.clock.now().toISOString();
      let orderRowId = current.order_row_id;
      if (input.order_id === null) orderRowId = null;
      else if (input.order_id !== undefined) orderRowId = (await this.upsertOrder(repos, caller.accountId, input, now)).order.id;
      else if (orderRowId !== null && hasOrderFields(input)) await this.updateOrderFields(repos, orderRowId, input, now);

      const carrierReference = tracking ? tracking.carrierReference : current.carrier_reference;
      const trackingChanged = trackingNumber !== current.tracking_number || carrierReference !== current.carrier_reference;
      const tracked = Boolean(trackingNumber && carrierReference);
      const currentBody = JSON.parse(current.body);
      const body = pickBody(normalized, currentBody);
      // Without a window of the merchant's, the details show the carrier's or the predicted one: sent back, it stays theirs.
      if (currentBody.expected_delivery == null && echoesShownWindow(input.expected_delivery, currentBody, current.phase_key))
        delete body.expected_delivery;
      if (trackingChanged) {
        // An aggregator's courier and its tracking belong to the number they were found for, as do the windows.
        forgetCarrierOfRecord(body);
        delete body.carrier_expected_delivery;
        delete body.delivery_prediction;
        if (current.next_poll_at !== null) await this.stops.queue(repos, current, this.clock.now().toISOString());
      }
      // Detection's note follows the tracking decided now, or stays as it was when the request left tracking alone.
      const note = tracking ? tracking.note : detectionNoteOf(currentBody.additional_info);
      if (tracking || input.additional_info !== undefined) {
        const info = body.additional_info as Record<string, unknown> | undefined;
        setAdditionalInfo(body, withDetectionNote(info, note, input.additional_info));
      }
      const changes: Updateable<ShipmentsTable> = {
        tracking_number: trackingNumber,
        carrier_reference: carrierReference,
        carrier_id:
          input.carrier_reference !== undefined || carrierReference !== current.carrier_reference
            ? await carrierIdOf(lookup, carrierReference)
            : current.carrier_id,
        order_row_id: orderRowId,
        body: JSON.stringify(body),
        updated_at: now,
        ...(trackingChanged
          ? {
              tracking_started_at: tracked ? now : null,
              next_poll_at: tracked ? now : null,
              last_tracking_update_at: tracked ? now : null,
              // A subscription belongs to the number it was made for.
              push_subscribed_until: null,
              push_retry_at: null,
              // The digest stands for an answer about the old number.
              tracking_digest: null,
              tracking_fingerprint: null,
            }
          : {}),
      };
      // The row as committed is the locked one with these changes (no trigger writes to it): not read back.
      await repos.shipments.writeChanges(current, changes);
      const row = { ...current, ...changes } as ShipmentRow;
      if (normalized.tags !== undefined) await repos.shipments.replaceTags(caller.accountId, row.id, normalized.tags ?? []);
      await this.events.emit(repos, { accountId: caller.accountId, type: 'shipment.updated', shipmentRowId: row.id });
      // Read after the transaction's last write: the version its writes leave, which any later write moves past.
      return { row, version: await repos.shipments.versionOf(row.id), unchangedEventsAt, body };
    });
  }

  /** Asks for a carrier poll now (POST /v5/shipment/trigger-adhoc-update/). */
  async triggerUpdate(
    caller: Caller,
    identifier: ShipmentIdentifier,
  ): Promise<{ shipment_uuid: string; shipment_id: string; next_poll_date: string }> {
    return this.repos.transaction(async (repos) => {
      const shipment = await findShipment(repos, caller.accountId, identifier);
      if (!shipment.tracking_number || !shipment.carrier_reference) {
        throw ValidationError.at(['shipment_uuid'], 'The shipment is not tracked: set tracking_number and carrier_reference first.');
      }
      const now = this.clock.now().toISOString();
      await repos.shipments.update(shipment.id, {
        next_poll_at: now,
        poll_failures: 0,
        tracking_started_at: shipment.tracking_started_at ?? now,
        last_tracking_update_at: shipment.next_poll_at === null ? now : shipment.last_tracking_update_at,
      });
      return { shipment_uuid: shipment.shipment_uuid, shipment_id: shipment.shipment_id, next_poll_date: now };
    });
  }

  private async check(lookup: CarrierLookup, input: ShipmentWrite, errors: FieldErrorCollector): Promise<ShipmentWrite> {
    const normalized = await checkShipmentInput(input, lookup, errors);
    if (normalized.linked_shipments) {
      const linked = [];
      for (const entry of normalized.linked_shipments) {
        linked.push({
          ...entry,
          carrier_id: await carrierIdOf(lookup, entry.carrier_reference),
        });
      }
      normalized.linked_shipments = linked;
    }
    return normalized;
  }

  private refuseOrderFieldsWithoutOrder(input: ShipmentWrite, errors: FieldErrorCollector): void {
    for (const field of ['order_reference', 'order_source_type', 'order_source_name'] as const) {
      if (input[field] !== undefined && input[field] !== null) errors.add([field], `${field} needs an order: give order_id too.`);
    }
  }

  /** Links the account's order with this order_id, creating it if new; a different order resets reference and source. */
  private async upsertOrder(
    repos: Repositories,
    accountId: number,
    input: ShipmentWrite,
    now: string,
  ): Promise<{ order: OrderRow; created: boolean }> {
    const { order, created } = await repos.orders.insertOrGet({
      account_id: accountId,
      order_uuid: timeOrderedUuid(),
      order_id: input.order_id as string,
      order_reference: input.order_reference ?? null,
      source_type: input.order_source_type ?? null,
      source_name: input.order_source_name ?? null,
      created_at: now,
      updated_at: now,
    });
    if (created || !hasOrderFields(input)) return { order, created };
    return { order: await this.updateOrderFields(repos, order.id, input, now), created };
  }

  private updateOrderFields(repos: Repositories, orderRowId: number, input: ShipmentWrite, now: string): Promise<OrderRow> {
    return repos.orders.update(orderRowId, {
      ...(input.order_reference !== undefined ? { order_reference: input.order_reference } : {}),
      ...(input.order_source_type !== undefined ? { source_type: input.order_source_type } : {}),
      ...(input.order_source_name !== undefined ? { source_name: input.order_source_name } : {}),
      updated_at: now,
    });
  }
}

/**
 * The row of a new shipment: pending, tracked from now on when it has a tracking number and a carrier. `body` is
 * its stored body as an object (`pickBody` of the normalized input), written as JSON text.
 */
function newShipmentRow(
  accountId: number,
  input: ShipmentWrite & { shipment_id: string },
  body: Record<string, unknown>,
  at: { carrierId: string | null; orderRowId: number | null; now: string; options: CreateOptions },
): Insertable<ShipmentsTable> {
  const tracked = Boolean(input.tracking_number && input.carrier_reference);
  const { now, options } = at;
  return {
    account_id: accountId,
    shipment_uuid: timeOrderedUuid(),
    shipment_id: input.shipment_id,
    tracking_number: input.tracking_number ?? null,
    carrier_reference: input.carrier_reference ?? null,
    carrier_id: at.carrierId,
    order_row_id: at.orderRowId,
    status: SHIPMENT_STATUS.pending,
    phase_key: null,
    source: options.source ?? 'api',
    shipment_type: options.shipmentType ?? null,
    tracking_page_reference: randomToken(16),
    body: JSON.stringify(body),
    created_at: now,
    updated_at: now,
    tracking_started_at: tracked ? now : null,
    next_poll_at: tracked ? now : null,
    last_tracking_update_at: tracked ? now : null,
  };
}

/** The account's carrier configurations by reference, each read once per lookup made. */
function carrierLookup(repos: Repositories, accountId: number): CarrierLookup {
  const found = new Map<string, ReturnType<CarrierLookup>>();
  return (ref) => {
    let config = found.get(ref);
    if (!config) {
      config = repos.carrierConfigs.carrierOf(accountId, ref);
      found.set(ref, config);
    }
    return config;
  };
}

async function carrierIdOf(lookup: CarrierLookup, carrierReference: string | null | undefined): Promise<string | null> {
  return carrierReference ? ((await lookup(carrierReference))?.carrier_id ?? null) : null;
}

/** The account's carrier configurations, read once per call when a number needs detecting. */
function accountCarriers(repos: Repositories, accountId: number): () => Promise<ConfiguredCarrier[]> {
  let listed: Promise<ConfiguredCarrier[]> | undefined;
  return () => {
    listed ??= repos.carrierConfigs.listForAccount(accountId);
    return listed;
  };
}

/** The carrier that tracks a shipment's number, and the note that explains why none does. */
interface ResolvedTracking {
  carrierReference: string | null;
  /** additional_info entries for a number no carrier was chosen for (docs/carriers/detection.md). */
  note: Record<string, string> | null;
}

/**
 * A number with a configured carrier_reference must pass that carrier's check digit (4030 on tracking_number);
 * a number without one is tracked by the one configuration detection finds likely, or stays untracked with a note.
 */
async function resolveTracking(
  lookup: CarrierLookup,
  carriers: () => Promise<ConfiguredCarrier[]>,
  input: { tracking_number?: string | null; carrier_reference?: string | null },
  errors: FieldErrorCollector,
): Promise<ResolvedTracking> {
  const carrierReference = input.carrier_reference ?? null;
  if (!input.tracking_number) return { carrierReference, note: null };
  if (carrierReference) {
    const config = await lookup(carrierReference);
    const checked = config ? checkTrackingNumber(config.carrier_id, input.tracking_number) : { ok: true as const };
    if (!checked.ok) errors.add(['tracking_number'], checked.message);
    return { carrierReference, note: null };
  }
  const routing = routeTrackingNumber(input.tracking_number, await carriers());
  return routing.routed
    ? { carrierReference: routing.carrier_reference, note: null }
    : { carrierReference: null, note: detectionNote(routing) };
}

/** The input and its normalized form as stored: the carrier tracking decided, detection's note in additional_info. */
function withTracking<T extends ShipmentWrite>(input: T, normalized: ShipmentWrite, tracking: ResolvedTracking): [T, ShipmentWrite] {
  const routed = { ...input, carrier_reference: tracking.carrierReference };
  if (!tracking.note) return [routed, normalized];
  const info = withDetectionNote(normalized.additional_info ?? undefined, tracking.note, input.additional_info);
  return [routed, { ...normalized, additional_info: info as ShipmentWrite['additional_info'] }];
}

/** Sets or (when empty) removes a stored body's additional_info. */
function setAdditionalInfo(body: Record<string, unknown>, info: Record<string, unknown>): void {
  if (Object.keys(info).length > 0) body.additional_info = info;
  else delete body.additional_info;
}

function hasOrderFields(input: ShipmentWrite): boolean {
  return input.order_reference !== undefined || input.order_source_type !== undefined || input.order_source_name !== undefined;
}

/** Whether an update's `expected_delivery` is the window the details showed (the carrier's or the predicted one). */
function echoesShownWindow(sent: ShipmentWrite['expected_delivery'], current: Record<string, unknown>, phaseKey: string | null): boolean {
  if (!sent) return false;
  const shown = shownExpectedDelivery(current, phaseKey);
  return shown !== null && (sent.from ?? null) === shown.from && (sent.to ?? null) === shown.to;
}

/**
 * The stored body with the input's fields applied: a value replaces, null clears. A field is deleted only when
 * the body has it: a create's body then never has a member deleted, which would make V8 keep it as a slow
 * dictionary, for every access and for its JSON.
 */
export function pickBody(input: ShipmentWrite, current: Record<string, unknown>): Record<string, unknown> {
  const body = { ...current };
  applyBodyFields(input, body);
  return body;
}

/**
 * `pickBody`'s loop over BODY_FIELDS written out, one statement a field, each naming its field: V8 keeps an object
 * whose members are added by name as a fast one (up to 128 members), where members added through a computed key
 * make it a slow dictionary past a dozen, as a body of twenty fields was, for every access and for its JSON
 * (docs/performance.md, the mixed load). The names are our own (BODY_FIELDS).
 */
const applyBodyFields = new Function(
  'input',
  'body',
  BODY_FIELDS.map((field) => {
    const key = JSON.stringify(field);
    return `if (input[${key}] !== undefined) {
      if (input[${key}] !== null) body[${key}] = input[${key}];
      else if (Object.hasOwn(body, ${key})) delete body[${key}];
    }`;
  }).join('\n'),
) as (input: ShipmentWrite, body: Record<string, unknown>) => void;
