import type { Repositories } from '../../db/repositories/index.js';
import type { OrderRow } from '../../db/repositories/orders.repository.js';
import { FieldErrorCollector, type FieldErrors } from '../errors.js';

interface ItemRef {
  product_id?: string | null;
  product_reference?: string | null;
}

/**
 * Things the merchant should know about a return that was nonetheless created: an order_id that names no
 * order of the account, or returned items that match no item of the order's shipments (by product_id or
 * product_reference). Null when there is nothing to say.
 */
export async function orderItemWarnings(
  repos: Repositories,
  accountId: number,
  orderId: string | null,
  order: OrderRow | null,
  items: readonly ItemRef[],
): Promise<FieldErrors | null> {
  const warnings = new FieldErrorCollector();
  if (orderId && !order)
    warnings.add(['shipment', 'order_id'], `No order "${orderId}" in the account; the return is not linked to an order.`);
  if (order) {
    const shipments = await repos.shipments.list(accountId, { orderId: order.order_id }, 1000, null);
    const known = new Set<string>();
    for (const row of shipments) {
      if (row.shipment_type === 'return') continue;
      for (const item of (JSON.parse(row.body).line_items ?? []) as ItemRef[]) {
        if (item.product_id) known.add(`id:${item.product_id}`);
        if (item.product_reference) known.add(`ref:${item.product_reference}`);
      }
    }
    items.forEach((item, index) => {
      const refs = [item.product_id && `id:${item.product_id}`, item.product_reference && `ref:${item.product_reference}`].filter(
        Boolean,
      ) as string[];
      if (refs.length > 0 && !refs.some((r) => known.has(r))) {
        warnings.add(['shipment', 'line_items', index], `Matches no item of order "${order.order_id}".`);
      }
    });
  }
  return warnings.empty ? null : warnings.result();
}
