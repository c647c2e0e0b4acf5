/** An amount as the ticket stores it: a decimal string with two places, or null. */
export function amountText(value: number | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return Number(value).toFixed(2);
}

/** A line item's prices as sent: a member may be null, read as left out. */
interface PricedItem {
  quantity?: number | null;
  product_cost?: number | null;
  total_price?: number | null;
}

/**
 * The refund of returned items: each item's total_price, or its product_cost times its quantity.
 * Null when no item carries a price.
 */
export function calculatedRefund(items: readonly PricedItem[]): string | null {
  let priced = false;
  let total = 0;
  for (const item of items) {
    if (typeof item.total_price === 'number') {
      total += item.total_price;
      priced = true;
    } else if (typeof item.product_cost === 'number') {
      total += item.product_cost * (item.quantity ?? 1);
      priced = true;
    }
  }
  return priced ? total.toFixed(2) : null;
}
