import type { Clock } from '../../clock.js';
import type { CarrierWaits } from '../../core/carrier-wait.js';
import { RETURN_STATUS } from '../../core/return-status.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { Caller } from '../auth.service.js';
import type { DocumentsService } from '../documents/documents.service.js';
import { DomainError, ValidationError } from '../errors.js';
import type { PudoService } from '../pudo/pudo.service.js';
import { returnStatusToken, verifyReturnStatusToken } from '../returns/portal-links.js';
import type { ReturnPolicy } from '../returns/return-policy.js';
import type { ReturnPolicyService } from '../returns/return-policy.service.js';
import type { ReturnsService } from '../returns/returns.service.js';
import { FORM_ID, newFormId, ORDER_ACCESS_MS, orderAccessToken, portalReturnId, verifyOrderAccessToken } from './portal-access.js';
import { contactMatches, type PortalItem, portalItems, type StoredLineItem } from './portal-items.js';
import { approvedAtOnce, type ChosenItem, returnedLineItem, returnedWeightGrams } from './portal-return.js';
import { type PortalReturnStatus, portalStatusOf } from './portal-status.js';
import { portalCaller, type ReturnLabels } from './return-labels.js';

/** An account's portal, as found by its reference: on, and of an account with returns. */
export interface Portal {
  reference: string;
  accountId: number;
  shopName: string;
  policy: ReturnPolicy;
  caller: Caller;
}

/** An order opened in the portal: what can be returned, and the identifier of the form that returns it. */
export interface PortalOrder {
  token: string;
  orderId: string;
  /** The order's first shipment that is not a return: the consumer's and merchant's addresses, weight, size. */
  outbound: Record<string, any>;
  items: PortalItem[];
  formId: string;
}

/** What the consumer sent from the choice form: field name to value, as a form posts them. */
export type PortalForm = Readonly<Record<string, string | undefined>>;

/** Problems of a sent form, by form field name, as message keys (with values for the message). */
export type PortalFormErrors = Record<string, { key: string; values?: Record<string, string> }>;

export type SubmitOutcome =
  | { kind: 'created'; statusToken: string }
  | { kind: 'invalid'; order: PortalOrder; errors: PortalFormErrors; form: PortalForm }
  | { kind: 'expired' };

/** A return as its status page shows it. */
export interface PortalReturnView {
  returnId: string | null;
  status: PortalReturnStatus;
  rejectReason: string | null;
  items: Array<{ name: string; quantity: number; reason: string | null }>;
  labels: Array<{ format: string; url: string }>;
  labelPending: boolean;
  /** A label can be asked for: approved, none yet, and the account books returns. */
  canRequestLabel: boolean;
  sendTo: Record<string, unknown> | null;
  trackingPageReference: string | null;
  trackingNumber: string | null;
  /** For a drop-off return not yet sent: the return carrier's nearest drop-off points to the consumer. */
  dropOffPoints: Array<{ name: string; address: string; distance_meters: number }>;
}

/** Drop-off points shown on a status page. */
const DROP_OFF_POINTS = 5;

/**
 * The consumer's returns portal: find an order by its number and the recipient's e-mail address or postal
 * code, choose items, reasons and methods, and get a return made through the returns service (validation,
 * de-duplication, webhooks) with the policy's decision, and its label booked through the booking flow.
 */
export class ReturnsPortalService {
  constructor(
    private readonly repos: Repositories,
    private readonly policies: ReturnPolicyService,
    private readonly returns: ReturnsService,
    private readonly labels: ReturnLabels,
    private readonly carrierWaits: CarrierWaits,
    private readonly documents: DocumentsService,
    private readonly pudo: PudoService,
    private readonly clock: Clock,
    private readonly urlKey: Buffer,
  ) {}

  /** The portal of a reference; null when there is none, or it is off. */
  async portal(reference: string): Promise<Portal | null> {
    if (!/^[A-Za-z0-9_-]{22}$/.test(reference)) return null;
    const found = await this.policies.byPortalReference(reference);
    if (!found?.policy.enabled) return null;
    const account = await this.repos.accounts.findById(found.account_id);
    if (!account) return null;
    const caller = portalCaller(account);
    if (!caller.features.has('returns')) return null;
    return { reference, accountId: account.id, shopName: found.policy.portal_name ?? account.name, policy: found.policy, caller };
  }

  /**
   * The access token of the order with this number whose recipient has this e-mail address or postal code;
   * null when there is no such order (an unknown order and a wrong contact look the same).
   */
  async findOrder(portal: Portal, orderNumber: string, contact: string): Promise<string | null> {
    const orderId = orderNumber.trim().replace(/^#/, '');
    if (orderId === '' || orderId.length > 50 || contact.trim() === '') return null;
    const order = await this.repos.orders.findByOrderId(portal.accountId, orderId);
    if (!order) return null;
    const shipments = await this.repos.returnsPortal.orderShipments(portal.accountId, order.id);
    if (!shipments.some((shipment) => contactMatches(contact, JSON.parse(shipment.body)))) return null;
    return orderAccessToken(
      { accountId: portal.accountId, orderRowId: order.id, expiresAt: this.clock.now().getTime() + ORDER_ACCESS_MS },
      this.urlKey,
    );
  }

  /** The order a token opens, with its items and a new form; null when the token is not valid (any more). */
  async order(portal: Portal, token: string, formId = newFormId()): Promise<PortalOrder | null> {
    const access = verifyOrderAccessToken(token, this.urlKey, this.clock.now().getTime());
    if (!access || access.accountId !== portal.accountId) return null;
    const [order] = await this.repos.orders.findByIds([access.orderRowId]);
    if (!order || order.account_id !== portal.accountId) return null;
    const shipments = await this.repos.returnsPortal.orderShipments(portal.accountId, order.id);
    const returned = (await this.repos.returnsPortal.activeReturnBodies(portal.accountId, order.order_id)).flatMap(
      (body) => (JSON.parse(body).line_items ?? []) as StoredLineItem[],
    );
    const items = portalItems(
      shipments.map((shipment) => ({ line_items: JSON.parse(shipment.body).line_items ?? [], delivered_at: shipment.delivered_at })),
      returned,
      portal.policy,
      this.clock.now(),
    );
    return { token, orderId: order.order_id, outbound: JSON.parse(shipments[0]?.body ?? '{}'), items, formId };
  }

  /**
   * Makes the return a form asks for. A form sent again (same form id) answers the return it made; a form
   * whose items were returned since it was opened is refused item by item.
   */
  async submit(portal: Portal, token: string, form: PortalForm): Promise<SubmitOutcome> {
    const formId = form.form_id ?? '';
    if (!FORM_ID.test(formId)) return { kind: 'expired' };
    const order = await this.order(portal, token, formId);
    if (!order) return { kind: 'expired' };
    // Sent before: the return it made, when it is of this order (a form id never opens another order's return).
    const made = await this.repos.returns.findByReturnId(portal.accountId, portalReturnId(formId));
    if (made?.order_id === order.orderId) return { kind: 'created', statusToken: returnStatusToken(made.return_uuid, this.urlKey) };

    const { chosen, errors } = readChoices(portal.policy, order.items, form);
    if (Object.keys(errors).length > 0) return { kind: 'invalid', order, errors, form };

    const lineItems = chosen.map(returnedLineItem);
    const outbound = order.outbound;
    const grams = returnedWeightGrams(lineItems);
    const approved = approvedAtOnce(portal.policy, lineItems as StoredLineItem[]);
    const returnId = portalReturnId(formId);
    const body = {
      return_ticket: {
        return_id: returnId,
        ...(form.comment?.trim() ? { comment: form.comment.trim().slice(0, 2000) } : {}),
        return_method: chosenMethod(portal.policy.return_methods, form.return_method) as never,
        refund_method: chosenMethod(portal.policy.refund_methods, form.refund_method) as never,
      },
      shipment: {
        shipment_id: returnId,
        order_id: order.orderId,
        line_items: lineItems,
        ...(outbound.recipient_address || outbound.to_address ? { from_address: outbound.recipient_address ?? outbound.to_address } : {}),
        ...(merchantAddress(outbound) ? { to_address: merchantAddress(outbound) } : {}),
        ...(grams !== null ? { weight: { amount: grams, unit: 'g' } } : outbound.weight ? { weight: outbound.weight } : {}),
        ...(outbound.dimensions ? { dimensions: outbound.dimensions } : {}),
        ...consumerEmails(outbound),
      },
    };
    let returnUuid: string;
    try {
      const created = await this.returns.create(portal.caller, body as never, { source: 'portal', approved });
      returnUuid = created.result.return_ticket.return_uuid;
    } catch (error) {
      // The same form sent twice at once: the first made the return.
      if (!(error instanceof ValidationError)) throw error;
      const raced = await this.repos.returns.findByReturnId(portal.accountId, returnId);
      // A form id taken by another order's return (a tampered form): nothing is made, the consumer starts again.
      if (raced?.order_id !== order.orderId) return { kind: 'expired' };
      returnUuid = raced.return_uuid;
    }
    if (approved) await this.labels.book(portal.caller, returnUuid);
    return { kind: 'created', statusToken: returnStatusToken(returnUuid, this.urlKey) };
  }

  /** The return a status token names, as its page shows it; null when the token names no return of this portal. */
  async status(portal: Portal, statusToken: string): Promise<PortalReturnView | null> {
    const returnUuid = verifyReturnStatusToken(statusToken, this.urlKey);
    const row = returnUuid ? await this.repos.returnsPortal.returnWithShipment(portal.accountId, returnUuid) : undefined;
    if (!row) return null;
    const details = JSON.parse(row.details) as Record<string, any>;
    const body = JSON.parse(row.body) as Record<string, any>;
    const documents = (await this.repos.documents.listForShipments([row.shipment_row_id], 'label')).filter(
      (doc) => doc.status !== 'voided',
    );
    const labels = documents.flatMap((doc) => {
      const url = this.documents.downloadUrl(doc);
      // On the portal's own origin, whatever the service's public address says.
      return url ? [{ format: doc.file_format.toUpperCase(), url: `${new URL(url).pathname}${new URL(url).search}` }] : [];
    });
    const booking = await this.repos.bookings.findByShipment(row.shipment_row_id);
    const status = portalStatusOf(row.status, labels.length > 0, details);
    const dropOff = details.return_method === 'drop_off' && (status === 'approved' || status === 'label_ready');
    const carrier = await this.labels.returnCarrier(portal.caller);
    return {
      returnId: row.return_id,
      status,
      rejectReason: status === 'rejected' ? (details.reject_reason ?? null) : null,
      items: ((body.line_items ?? []) as StoredLineItem[]).map((item) => ({
        name: String(item.product_name ?? item.product_reference ?? item.product_id ?? ''),
        quantity: typeof item.quantity === 'number' ? item.quantity : 1,
        reason: typeof item.return_reason === 'string' ? item.return_reason : null,
      })),
      labels,
      labelPending: documents.some((doc) => doc.status === 'pending'),
      canRequestLabel: row.status === RETURN_STATUS.approved && !booking && carrier !== null,
      sendTo: body.to_address ?? null,
      trackingPageReference: row.tracking_number ? row.tracking_page_reference : null,
      trackingNumber: row.tracking_number,
      dropOffPoints: dropOff && carrier ? await this.dropOffPoints(portal, carrier, body.from_address) : [],
    };
  }

  /**
   * The return carrier's drop-off points nearest the consumer's postal code: shown, not chosen (any point of
   * the carrier takes a labelled return). None when the carrier has no points or the search fails.
   */
  private async dropOffPoints(
    portal: Portal,
    carrier: string,
    from: Record<string, unknown> | undefined,
  ): Promise<PortalReturnView['dropOffPoints']> {
    const postal = typeof from?.postal_code === 'string' ? from.postal_code : null;
    const country = typeof from?.country_code === 'string' ? from.country_code : null;
    if (!postal || !country) return [];
    try {
      const found = await this.pudo.search(
        portal.caller,
        { carrier_reference: carrier, postal_code: postal, country_code: country, limit: DROP_OFF_POINTS, services: 'drop_off' },
        this.carrierWaits.begin(),
      );
      return found.map((point) => ({
        name: point.address.address_name,
        address: point.address.full,
        distance_meters: point.distance_meters,
      }));
    } catch (error) {
      if (error instanceof DomainError) return [];
      throw error;
    }
  }

  /** Books the label of an approved return that has none (the consumer asks for it on the status page). */
  async requestLabel(portal: Portal, statusToken: string): Promise<boolean> {
    const returnUuid = verifyReturnStatusToken(statusToken, this.urlKey);
    if (!returnUuid) return false;
    return (await this.labels.book(portal.caller, returnUuid)) === 'booked';
  }
}

/** The method chosen among those the policy offers; the only one when it offers one. */
function chosenMethod(offered: readonly string[], given: string | undefined): string | undefined {
  if (offered.length === 1) return offered[0];
  return given && offered.includes(given) ? given : undefined;
}

/** Who hears about the return: the order's notification addresses, else its recipient's e-mail address. */
function consumerEmails(outbound: Record<string, any>): { notification_email?: string[] } {
  if (Array.isArray(outbound.notification_email) && outbound.notification_email.length > 0) {
    return { notification_email: outbound.notification_email };
  }
  const email = outbound.recipient_address?.email ?? outbound.to_address?.email;
  return typeof email === 'string' && email !== '' ? { notification_email: [email] } : {};
}

/** Where the merchant wants returns: the order's return address, else its sender. */
function merchantAddress(outbound: Record<string, any>): Record<string, unknown> | null {
  return outbound.return_address ?? outbound.sender_address ?? outbound.from_address ?? null;
}

/** The items, quantities and reasons a form chose, and what is wrong with it (by form field). */
export function readChoices(
  policy: ReturnPolicy,
  items: readonly PortalItem[],
  form: PortalForm,
): { chosen: ChosenItem[]; errors: PortalFormErrors } {
  const errors: PortalFormErrors = {};
  const chosen: ChosenItem[] = [];
  const byKey = new Map(items.map((item) => [item.key, item]));
  const reasons = new Set(policy.reasons.map((reason) => reason.code));
  for (let index = 0; index < 1000 && form[`item_${index}_key`] !== undefined; index++) {
    const quantityText = form[`item_${index}_quantity`] ?? '0';
    const quantity = /^\d{1,7}$/.test(quantityText) ? Number(quantityText) : Number.NaN;
    if (quantity === 0) continue;
    const item = byKey.get(form[`item_${index}_key`] ?? '');
    if (!item || item.not_returnable !== null) {
      errors[`item_${index}_quantity`] = { key: 'no_longer_returnable' };
      continue;
    }
    if (!Number.isInteger(quantity) || quantity > item.returnable) {
      errors[`item_${index}_quantity`] = { key: 'too_many_items', values: { max: String(item.returnable) } };
      continue;
    }
    const reason = form[`item_${index}_reason`] ?? '';
    if (!reasons.has(reason)) {
      errors[`item_${index}_reason`] = { key: 'reason_required' };
      continue;
    }
    chosen.push({ item, quantity, reason });
  }
  if (chosen.length === 0 && Object.keys(errors).length === 0) errors.items = { key: 'nothing_chosen' };
  for (const [field, offered] of [
    ['return_method', policy.return_methods],
    ['refund_method', policy.refund_methods],
  ] as const) {
    if (offered.length > 1 && !chosenMethod(offered, form[field])) errors[field] = { key: 'choose_one' };
  }
  if ((form.comment ?? '').length > 2000) errors.comment = { key: 'comment_too_long' };
  return { chosen, errors };
}
