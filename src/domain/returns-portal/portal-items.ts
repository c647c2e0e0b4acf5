import type { ReturnPolicy } from '../returns/return-policy.js';

/** A line item as stored in a shipment's body (any field may be missing or null). */
export type StoredLineItem = Readonly<Record<string, unknown>> & {
  product_name?: string | null;
  product_id?: string | null;
  product_reference?: string | null;
  product_category?: string | null;
  quantity?: number | null;
};

/** An outbound shipment of the order: its line items and when it was delivered (null: not yet). */
export interface OrderShipment {
  line_items: readonly StoredLineItem[];
  delivered_at: string | null;
}

/** Why an item of the order cannot be chosen. */
export type NotReturnable = 'window_closed' | 'non_returnable' | 'already_returned';

/** An item of the order as the portal offers it: what it is, how many can still be returned, and until when. */
export interface PortalItem {
  /** Stable across page loads: the product id, else reference, else name. */
  key: string;
  name: string;
  product_id: string | null;
  product_reference: string | null;
  image_url: string | null;
  /** The first line item with this key, copied into the return (quantity aside). */
  line_item: StoredLineItem;
  ordered: number;
  returnable: number;
  /** The last day a return is possible (window counted from delivery); null while not delivered. */
  return_by: string | null;
  not_returnable: NotReturnable | null;
}

const DAY_MS = 86_400_000;

/** The key items are matched by across shipments and returns; null for an item with nothing to name it. */
export function itemKey(item: StoredLineItem): string | null {
  if (item.product_id) return `id:${item.product_id}`;
  if (item.product_reference) return `ref:${item.product_reference}`;
  if (item.product_name) return `name:${item.product_name}`;
  return null;
}

function quantityOf(item: StoredLineItem): number {
  return typeof item.quantity === 'number' && item.quantity > 0 ? item.quantity : 1;
}

/**
 * The order's items as the portal offers them: quantities of its outbound shipments, less what returns not
 * rejected or cancelled already hold; an item past the window (counted from its shipment's delivery) or named
 * non-returnable by the policy is listed with the reason and cannot be chosen.
 */
export function portalItems(
  shipments: readonly OrderShipment[],
  returned: readonly StoredLineItem[],
  policy: Pick<ReturnPolicy, 'return_window_days' | 'non_returnable'>,
  now: Date,
): PortalItem[] {
  const items = new Map<string, PortalItem>();
  for (const shipment of shipments) {
    const returnBy = shipment.delivered_at
      ? new Date(Date.parse(shipment.delivered_at) + policy.return_window_days * DAY_MS).toISOString().slice(0, 10)
      : null;
    for (const item of shipment.line_items) {
      const key = itemKey(item);
      if (!key) continue;
      const known = items.get(key);
      if (known) {
        known.ordered += quantityOf(item);
        // The latest deadline of the shipments holding the item: the later delivery keeps it returnable longer.
        if (known.return_by !== null && (returnBy === null || returnBy > known.return_by)) known.return_by = returnBy;
        continue;
      }
      items.set(key, {
        key,
        name: String(item.product_name ?? item.product_reference ?? item.product_id),
        product_id: item.product_id ?? null,
        product_reference: item.product_reference ?? null,
        image_url: typeof item.product_image_url === 'string' ? item.product_image_url : null,
        line_item: item,
        ordered: quantityOf(item),
        returnable: 0,
        return_by: returnBy,
        not_returnable: null,
      });
    }
  }
  const held = new Map<string, number>();
  for (const item of returned) {
    const key = itemKey(item);
    if (key) held.set(key, (held.get(key) ?? 0) + quantityOf(item));
  }
  const today = now.toISOString().slice(0, 10);
  const excluded = {
    ids: new Set(policy.non_returnable.product_ids),
    references: new Set(policy.non_returnable.product_references),
    categories: new Set(policy.non_returnable.categories.map((category) => category.toLowerCase())),
  };
  for (const item of items.values()) {
    item.returnable = Math.max(0, item.ordered - (held.get(item.key) ?? 0));
    const category = item.line_item.product_category;
    if (
      (item.product_id && excluded.ids.has(item.product_id)) ||
      (item.product_reference && excluded.references.has(item.product_reference)) ||
      (typeof category === 'string' && excluded.categories.has(category.toLowerCase()))
    ) {
      item.not_returnable = 'non_returnable';
    } else if (item.return_by !== null && item.return_by < today) {
      item.not_returnable = 'window_closed';
    } else if (item.returnable === 0) {
      item.not_returnable = 'already_returned';
    }
  }
  return [...items.values()];
}

/** Whether a consumer's contact (an e-mail address or a postal code) is the one of a shipment's recipient. */
export function contactMatches(contact: string, body: Readonly<Record<string, any>>): boolean {
  const given = contact.trim();
  if (given === '') return false;
  if (given.includes('@')) {
    const wanted = given.toLowerCase();
    const emails = [body.recipient_address?.email, ...(Array.isArray(body.notification_email) ? body.notification_email : [])];
    return emails.some((email) => typeof email === 'string' && email.trim().toLowerCase() === wanted);
  }
  const postal = body.recipient_address?.postal_code;
  return typeof postal === 'string' && compactPostalCode(postal) === compactPostalCode(given) && compactPostalCode(given) !== '';
}

function compactPostalCode(text: string): string {
  return text.replace(/[\s-]/g, '').toUpperCase();
}
