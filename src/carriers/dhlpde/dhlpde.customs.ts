import type { BookLineItem, BookRequest, CarrierFieldError } from '../booking.js';
import { alpha3, type Origins } from './dhlpde.address.js';
import type { DhlCommodity } from './dhlpde.payload.js';

const GRAMS_PER_UNIT: Record<string, number> = { g: 1, kg: 1000, lb: 453.59237, oz: 28.349523125 };

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** Grams of one piece: `product_weight`, else the line's weight shared by its pieces; units g, kg, lb, oz. */
function pieceGrams(item: BookLineItem, quantity: number): { grams: number; field: string } | null {
  const own = num(item.product_weight);
  const line = num(item.line_item_weight);
  const unitOf = (unit: unknown) => GRAMS_PER_UNIT[String(unit ?? 'g').toLowerCase()];
  if (own !== null && own > 0 && unitOf(item.product_weight_unit))
    return { grams: own * unitOf(item.product_weight_unit), field: 'product_weight' };
  if (line !== null && line > 0 && unitOf(item.line_item_weight_unit)) {
    return { grams: (line * unitOf(item.line_item_weight_unit)) / quantity, field: 'line_item_weight' };
  }
  return null;
}

/** The value of one piece: `product_cost`, else the line's total (or subtotal) shared by its pieces. */
function pieceValue(item: BookLineItem, quantity: number): { value: number; field: string } | null {
  const cost = num(item.product_cost);
  if (cost !== null && cost > 0) return { value: cost, field: 'product_cost' };
  for (const field of ['total_price', 'subtotal_cost'] as const) {
    const total = num(item[field]);
    if (total !== null && total > 0) return { value: total / quantity, field };
  }
  return null;
}

/**
 * The shipment's line items as DHL commodities (CN23/CN22 lines): a description, the quantity, and one piece's
 * value and weight, with the HS code and country of origin DHL needs outside the EU. Each problem names the line
 * item's field (`line_items[i].hs_code`); `origins` maps `items[i].<DHL field>` back to it.
 */
export function readCommodities(
  request: BookRequest,
  options: { max: number },
): { items: DhlCommodity[]; currency: string | null; origins: Origins; problems: CarrierFieldError[] } {
  const problems: CarrierFieldError[] = [];
  const origins: Origins = {};
  const items: DhlCommodity[] = [];
  if (request.line_items.length === 0) {
    problems.push({
      path: ['line_items'],
      message:
        'DHL needs the goods (line items with description, quantity, value, weight, HS code and origin) for the customs declaration.',
    });
    return { items, currency: null, origins, problems };
  }
  if (request.line_items.length > options.max) {
    problems.push({ path: ['line_items'], message: `DHL declares at most ${options.max} kinds of goods per parcel.` });
  }
  let currency: string | null = request.shipment_value?.currency ?? null;
  request.line_items.slice(0, options.max).forEach((item, index) => {
    const at = (field: string) => ['line_items', index, field];
    const quantity = Number.isInteger(item.quantity) && (item.quantity as number) > 0 ? (item.quantity as number) : 1;
    const description = str(item.customs_description) ?? str(item.product_name) ?? str(item.product_description);
    const descriptionField = str(item.customs_description)
      ? 'customs_description'
      : str(item.product_name)
        ? 'product_name'
        : 'product_description';
    if (!description) problems.push({ path: at('customs_description'), message: 'DHL needs a description of the goods for customs.' });
    const hsCode = str(item.hs_code)?.replace(/[\s.]/g, '') ?? null;
    if (!hsCode || !/^\d{6,11}$/.test(hsCode)) {
      problems.push({ path: at('hs_code'), message: 'The HS code (customs tariff number, 6 to 11 digits) is needed outside the EU.' });
    }
    const origin = alpha3(str(item.product_origin_country_code));
    if (!origin) {
      problems.push({ path: at('product_origin_country_code'), message: 'The country of origin (ISO alpha-2) is needed outside the EU.' });
    }
    const value = pieceValue(item, quantity);
    if (!value) problems.push({ path: at('product_cost'), message: 'The value of one piece (product_cost) is needed for customs.' });
    const weight = pieceGrams(item, quantity);
    if (!weight)
      problems.push({
        path: at('product_weight'),
        message: 'The weight of one piece (product_weight, with its unit) is needed for customs.',
      });
    const itemCurrency = str(item.currency_code)?.toUpperCase() ?? null;
    if (itemCurrency && currency && itemCurrency !== currency) {
      problems.push({ path: at('currency_code'), message: `DHL declares every line in one currency (${currency}).` });
    }
    currency = currency ?? itemCurrency;
    const prefix = `items[${index}]`;
    origins[`${prefix}.itemDescription`] = at(descriptionField);
    origins[`${prefix}.hsCode`] = at('hs_code');
    origins[`${prefix}.countryOfOrigin`] = at('product_origin_country_code');
    origins[`${prefix}.packagedQuantity`] = at('quantity');
    origins[`${prefix}.itemValue`] = at(value?.field ?? 'product_cost');
    origins[`${prefix}.itemWeight`] = at(weight?.field ?? 'product_weight');
    items.push({
      itemDescription: (description ?? '').slice(0, 256),
      packagedQuantity: quantity,
      ...(hsCode ? { hsCode } : {}),
      ...(origin ? { countryOfOrigin: origin } : {}),
      itemValue: { currency: currency ?? 'EUR', value: Math.round((value?.value ?? 0) * 100) / 100 },
      itemWeight: { uom: 'g', value: Math.max(1, Math.round(weight?.grams ?? 0)) },
    });
  });
  if (!currency) {
    problems.push({
      path: ['line_items', 0, 'currency_code'],
      message: 'The currency of the goods (currency_code, or shipment_value) is needed for customs.',
    });
  }
  for (const item of items) item.itemValue.currency = currency ?? 'EUR';
  return { items, currency, origins, problems };
}
