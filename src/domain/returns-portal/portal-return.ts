import { LINE_ITEM_FIELDS } from '../../schemas/line-item.schemas.js';
import { calculatedRefund } from '../returns/refund.js';
import type { ReturnPolicy } from '../returns/return-policy.js';
import type { PortalItem, StoredLineItem } from './portal-items.js';

/** One item the consumer chose: how many, and why. */
export interface ChosenItem {
  item: PortalItem;
  quantity: number;
  reason: string;
}

const GRAMS_PER_UNIT: Record<string, number> = { g: 1, kg: 1000, lb: 453.59237, oz: 28.349523125 };

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * The return's line item for a chosen item: the order's line item (what the API accepts of it) with the
 * quantity returned, its price per piece, and the reason code in `return_reason`.
 */
export function returnedLineItem(chosen: ChosenItem): Record<string, unknown> {
  const source = chosen.item.line_item;
  const item: Record<string, unknown> = {};
  for (const field of LINE_ITEM_FIELDS) {
    const value = source[field];
    if (value !== undefined && value !== null) item[field] = value;
  }
  const lineQuantity = typeof source.quantity === 'number' && source.quantity > 0 ? source.quantity : 1;
  const unit =
    typeof source.product_cost === 'number'
      ? source.product_cost
      : typeof source.total_price === 'number'
        ? source.total_price / lineQuantity
        : null;
  for (const field of [
    'subtotal_cost',
    'discount_amount',
    'tax_amount',
    'misc_cost',
    'total_price',
    'line_item_weight',
    'line_item_weight_unit',
  ]) {
    delete item[field];
  }
  item.quantity = chosen.quantity;
  if (unit !== null) {
    item.product_cost = round2(unit);
    item.total_price = round2(unit * chosen.quantity);
  }
  item.return_reason = chosen.reason;
  return item;
}

/** The weight of the returned items in grams when every one has a product weight; null otherwise. */
export function returnedWeightGrams(items: readonly Record<string, unknown>[]): number | null {
  let grams = 0;
  for (const item of items) {
    const weight = item.product_weight;
    const unit = typeof item.product_weight_unit === 'string' ? item.product_weight_unit.toLowerCase() : 'g';
    if (typeof weight !== 'number' || weight <= 0 || !(unit in GRAMS_PER_UNIT)) return null;
    grams += weight * GRAMS_PER_UNIT[unit] * (typeof item.quantity === 'number' ? item.quantity : 1);
  }
  return grams > 0 ? Math.ceil(grams) : null;
}

/**
 * Whether the policy approves a return at once: auto-approval on, and its value at most the maximum (in the
 * maximum's currency; a return of unknown value, or in another currency, waits for the merchant). Every item is
 * within the window already: the portal offers no other.
 */
export function approvedAtOnce(policy: ReturnPolicy, items: readonly StoredLineItem[]): boolean {
  if (!policy.auto_approval.enabled) return false;
  const max = policy.auto_approval.max_value;
  if (!max) return true;
  const value = calculatedRefund(items as Parameters<typeof calculatedRefund>[0]);
  if (value === null) return false;
  const currencies = new Set(items.map((item) => item.currency_code));
  if (currencies.size !== 1 || !currencies.has(max.currency)) return false;
  return Number(value) <= Number(max.amount);
}
