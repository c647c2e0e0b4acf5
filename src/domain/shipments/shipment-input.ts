import { parseEventTime } from '../../core/event-time.js';
import { ADDRESS_ROLES } from '../../schemas/address.schemas.js';
import type { ShipmentWrite } from '../../schemas/shipment-input.schemas.js';
import type { FieldErrorCollector } from '../errors.js';
import { countryByCode, countryByName, isCurrency, isPhoneNumber } from '../reference-data.js';

type Address = Record<string, string>;
type Json = Record<string, unknown>;
type Path = Array<string | number>;

const REQUIRED = 'This field is required.';

/** Looks up whether a carrier_reference is configured in the account, and its carrier id. */
export type CarrierLookup = (carrierReference: string) => Promise<{ carrier_id: string } | undefined>;

/**
 * The rules a schema cannot express: countries resolved from names or codes, phone numbers,
 * currencies, one currency across line items, configured carriers, time windows. Collects every
 * problem by field before anything is stored; returns the input with addresses normalized.
 */
export async function checkShipmentInput(
  input: ShipmentWrite,
  lookupCarrier: CarrierLookup,
  errors: FieldErrorCollector,
): Promise<ShipmentWrite> {
  input = withNullMembersAbsent(input);
  const out: ShipmentWrite = { ...input };
  // "" is refused by the schema; text of spaces only names nothing either.
  if (typeof input.shipment_id === 'string' && input.shipment_id !== '' && input.shipment_id.trim() === '') {
    errors.add(['shipment_id'], 'This field may not be blank.');
  }
  for (const role of ADDRESS_ROLES) {
    const address = input[role];
    if (address) out[role] = normalizeAddress(address as Address, [role], errors);
  }
  input.notification_phone?.forEach((phone, i) => {
    if (!isPhoneNumber(phone)) errors.add(['notification_phone', i], 'Enter a phone number as +, country calling code and number.');
  });
  for (const field of ['shipment_value', 'total_shipping_cost', 'cod_value'] as const) {
    const money = input[field];
    if (money) checkMoney(money, [field], errors);
  }
  const dimensions = input.dimensions as Json | null | undefined;
  for (const side of ['length', 'width', 'height']) {
    if (dimensions && dimensions[side] === undefined) errors.add(['dimensions', side], REQUIRED);
  }
  input.shipping_costs?.forEach((cost, i) => {
    if (cost.unit_cost) checkMoney(cost.unit_cost, ['shipping_costs', i, 'unit_cost'], errors);
    if (cost.total_cost) checkMoney(cost.total_cost, ['shipping_costs', i, 'total_cost'], errors);
    else errors.add(['shipping_costs', i, 'total_cost'], REQUIRED);
  });
  if (input.line_items) checkLineItems(input.line_items, errors);
  if (input.expected_delivery) checkWindow(input.expected_delivery, errors);
  if (input.carrier_reference && !(await lookupCarrier(input.carrier_reference))) {
    errors.add(['carrier_reference'], `carrier_reference "${input.carrier_reference}" is not configured in this account.`);
  }
  if (input.linked_shipments) {
    for (const [i, linked] of input.linked_shipments.entries()) {
      if (!(await lookupCarrier(linked.carrier_reference))) {
        errors.add(
          ['linked_shipments', i, 'carrier_reference'],
          `carrier_reference "${linked.carrier_reference}" is not configured in this account.`,
        );
      }
    }
  }
  return out;
}

function normalizeAddress(address: Address, path: Path, errors: FieldErrorCollector): Address {
  // Copied member by member (its members are all present: withNullMembersAbsent ran first), not by a spread: once V8
  // had compiled the check, each copy a spread made got a shape of its own (from about the hundredth body on,
  // however alike), and every later read of such an object missed V8's caches; the presenter reads each address's
  // twenty fields (docs/performance.md, the mixed load). Members added one by one share their shapes.
  const out = presentMembers(address) as Address;
  const byCode = address.country_code !== undefined ? countryByCode(address.country_code) : null;
  const byName = address.country !== undefined ? countryByName(address.country) : null;
  if (address.country_code !== undefined && !byCode)
    errors.add([...path, 'country_code'], 'Enter a valid ISO 3166-1 alpha-2 country code.');
  if (address.country !== undefined && !byName) errors.add([...path, 'country'], `Country "${address.country}" is not recognised.`);
  if (address.country === undefined && address.country_code === undefined)
    errors.add([...path, 'country_code'], 'Provide country or country_code.');
  if (byCode && byName && byCode.code !== byName.code) {
    errors.add([...path, 'country'], `Country "${address.country}" does not match country_code "${address.country_code}".`);
  }
  const country = byCode ?? byName;
  if (country) {
    out.country = country.name;
    out.country_code = country.code;
  }
  if (address.phone !== undefined && !isPhoneNumber(address.phone)) {
    errors.add([...path, 'phone'], 'Enter a phone number as +, country calling code and number.');
  }
  return out;
}

/** Money with a member left out (or sent as null beside one that is not) is missing that member. */
function checkMoney(money: { amount?: number | null; currency?: string | null }, path: Path, errors: FieldErrorCollector): void {
  if (money.amount === undefined) errors.add([...path, 'amount'], REQUIRED);
  if (money.currency === undefined) errors.add([...path, 'currency'], REQUIRED);
  else if (typeof money.currency === 'string' && !isCurrency(money.currency)) {
    errors.add([...path, 'currency'], 'Enter a valid ISO 4217 currency code.');
  }
}

function checkLineItems(items: NonNullable<ShipmentWrite['line_items']>, errors: FieldErrorCollector): void {
  let firstCurrency: { code: string; index: number } | null = null;
  items.forEach((item, i) => {
    if (typeof item.currency_code === 'string') {
      if (!isCurrency(item.currency_code)) errors.add(['line_items', i, 'currency_code'], 'Enter a valid ISO 4217 currency code.');
      else if (!firstCurrency) firstCurrency = { code: item.currency_code, index: i };
      else if (firstCurrency.code !== item.currency_code) {
        errors.add(
          ['line_items', i, 'currency_code'],
          `All line items must use one currency: line item ${firstCurrency.index} uses ${firstCurrency.code}.`,
        );
      }
    }
    if (typeof item.product_origin_country_code === 'string' && !countryByCode(item.product_origin_country_code)) {
      errors.add(['line_items', i, 'product_origin_country_code'], 'Enter a valid ISO 3166-1 alpha-2 country code.');
    }
  });
}

function checkWindow(window: NonNullable<ShipmentWrite['expected_delivery']>, errors: FieldErrorCollector): void {
  const parsed: Record<string, string> = {};
  for (const end of ['from', 'to'] as const) {
    const value = window[end];
    if (value === undefined || value === null) continue;
    const result = parseEventTime(value);
    if (result.ok) parsed[end] = result.time.utc;
    else errors.add(['expected_delivery', end], `Enter a date or an ISO 8601 date-time (${result.reason}).`);
  }
  if (parsed.from && parsed.to && parsed.from > parsed.to)
    errors.add(['expected_delivery', 'to'], 'The window must not end before it starts.');
}

/**
 * The input with a blank `tracking_number`, `carrier_reference` or `order_id` ("" or spaces, as clients send for no
 * value) read as null: no number, no carrier, no order. Without this, "" was stored as given in one case and as
 * null in another, and an `order_id` of spaces made an order no one could name.
 */
export function withBlankAsNull<T extends { tracking_number?: string | null; carrier_reference?: string | null; order_id?: string | null }>(
  input: T,
): T {
  const blank = (value: string | null | undefined) => typeof value === 'string' && value.trim() === '';
  if (!blank(input.tracking_number) && !blank(input.carrier_reference) && !blank(input.order_id)) return input;
  return {
    ...input,
    ...(blank(input.tracking_number) ? { tracking_number: null } : {}),
    ...(blank(input.carrier_reference) ? { carrier_reference: null } : {}),
    ...(blank(input.order_id) ? { order_id: null } : {}),
  };
}

/** Objects whose empty value the details show as the object with null members (and its unit), not as null. */
const MEASURES = ['shipment_value', 'total_shipping_cost', 'cod_value', 'dimensions', 'weight', 'expected_delivery'] as const;

/**
 * The input with the null members of its objects read as left out: the details show an empty member as null, so
 * a body read from them and sent back has nulls wherever nothing is stored. An object still replaces the stored
 * one whole, so a member sent as null is not kept either. Money, Dimensions, Weight and ExpectedDelivery with no
 * member left but their unit are none (`null`, as the details show none); a shipping cost's empty `unit_cost` is
 * left out. The details' read-only members (an address's `full`, a linked shipment's `carrier`) are dropped.
 * Top-level nulls are untouched: they clear.
 */
export function withNullMembersAbsent(input: ShipmentWrite): ShipmentWrite {
  const out: Json = { ...input };
  for (const role of ADDRESS_ROLES) {
    const address = input[role];
    if (address) out[role] = presentMembers(address, ['full']);
  }
  for (const field of MEASURES) {
    const measure = input[field];
    if (measure) out[field] = measureOrNone(measure);
  }
  if (input.shipping_costs) {
    out.shipping_costs = input.shipping_costs.map((cost) => {
      const present = presentMembers(cost);
      for (const money of ['unit_cost', 'total_cost']) {
        const value = present[money] ? measureOrNone(present[money] as Json) : null;
        if (value) present[money] = value;
        else delete present[money];
      }
      return present;
    });
  }
  if (input.linked_shipments) out.linked_shipments = input.linked_shipments.map((linked) => presentMembers(linked, ['carrier']));
  if (input.line_items) out.line_items = input.line_items.map((item) => ({ ...presentMembers(item), quantity: item.quantity ?? 1 }));
  return out as ShipmentWrite;
}

/** An object's members that are not null, but those named in `readOnly`. */
function presentMembers(value: object, readOnly: readonly string[] = []): Json {
  const out: Json = {};
  for (const key of Object.keys(value)) {
    const member = (value as Json)[key];
    if (member !== null && (readOnly.length === 0 || !readOnly.includes(key))) out[key] = member;
  }
  return out;
}

function measureOrNone(value: object): Json | null {
  const present = presentMembers(value);
  return Object.keys(present).some((key) => key !== 'unit') ? present : null;
}
