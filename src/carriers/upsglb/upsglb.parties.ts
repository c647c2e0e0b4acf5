import type { BookRequest } from '../booking.js';

/**
 * Who is who in a UPS shipment, and our address fields in UPS's shape and limits (Shipping.yaml: `Shipper`,
 * `ShipTo`, `ShipFrom`, `AlternateDeliveryAddress`). Pure.
 */

/** UPS's three parties and which of the shipment's address fields each comes from. */
export interface Parties {
  /** The account holder: the merchant (the sender of an outbound shipment, the addressee of a return). */
  shipper: string;
  shipTo: string;
  /** Where the parcel leaves from; for an outbound shipment the Shipper's address (UPS then omits ShipFrom). */
  shipFrom: string;
}

export function partiesOf(request: BookRequest): Parties {
  if (request.type_of_shipment === 'return') {
    return { shipper: request.recipient_field, shipTo: request.recipient_field, shipFrom: request.sender_field };
  }
  return { shipper: request.sender_field, shipTo: request.recipient_field, shipFrom: request.sender_field };
}

/** The address stored in a field of the request (sender or recipient). */
export function addressAt(request: BookRequest, field: string): Record<string, unknown> | null {
  if (field === request.sender_field) return request.sender;
  if (field === request.recipient_field) return request.recipient;
  return null;
}

/** UPS's limits (Shipping.yaml, `Shipper`/`ShipTo` and their `Address`). */
export const LIMITS = { name: 35, line: 35, city: 30, postal: 9, state: 5, phone: 15, email: 50 } as const;

function str(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
}

export function countryOf(address: Record<string, unknown> | null): string {
  return str(address?.country_code).toUpperCase();
}

export function personOf(address: Record<string, unknown>): string {
  return [str(address.first_name), str(address.last_name)].filter(Boolean).join(' ');
}

/** `Name`: the company, else the person. */
export function nameOf(address: Record<string, unknown>): string {
  return str(address.company) || personOf(address);
}

/** `AttentionName`: the person, else the company. */
export function attentionOf(address: Record<string, unknown>): string {
  return personOf(address) || str(address.company);
}

/** Address lines with the field each comes from: line1 (or street name and house number), line2, line3. */
export function linesOf(address: Record<string, unknown>): Array<{ field: string; text: string }> {
  const first = str(address.line1) || [str(address.street_name), str(address.house_number)].filter(Boolean).join(' ');
  return [
    { field: 'line1', text: first },
    { field: 'line2', text: str(address.line2) },
    { field: 'line3', text: str(address.line3) },
  ].filter((line) => line.text !== '');
}

/**
 * The postal code as UPS takes it (at most 9 characters): digits only in the US and PR ("5 or 9 digits"),
 * elsewhere without spaces (`1402SC`, `M5C2M6`).
 */
export function postalOf(address: Record<string, unknown>): string {
  const raw = str(address.postal_code);
  return ['US', 'PR'].includes(countryOf(address)) ? raw.replace(/\D/g, '') : raw.replace(/\s+/g, '').toUpperCase();
}

/** Where UPS wants 10-digit national numbers (area code and number): the North American numbering plan. */
const NANP = new Set(['US', 'CA', 'PR', 'VI', 'GU']);

/**
 * A phone number as UPS takes it: digits only ("Valid values are 0 - 9"); in the US, PR, CA and VI the
 * area code and number without the country code 1, elsewhere country code, area code and number.
 */
export function phoneDigits(address: Record<string, unknown>): string {
  const digits = str(address.phone).replace(/\D/g, '');
  if (NANP.has(countryOf(address)) && digits.length === 11 && digits.startsWith('1')) return digits.slice(1);
  return digits;
}

/** The European Union's customs territory (Monaco included): parcels inside it need no customs papers. */
const EU = new Set('AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE MC'.split(' '));

export function inEu(country: string): boolean {
  return EU.has(country);
}

/** UPS's "Qualified Domestic Shipment": same country, US and PR, or both inside the EU. */
export function isDomesticForCustoms(from: string, to: string): boolean {
  if (from === to) return true;
  if ((from === 'US' && to === 'PR') || (from === 'PR' && to === 'US')) return true;
  return inEu(from) && inEu(to);
}

/** Whether the shipment crosses a customs border, so UPS needs an invoice of its goods. */
export function needsCustoms(request: BookRequest): boolean {
  const from = countryOf(request.sender);
  const to = countryOf(request.recipient);
  return from !== '' && to !== '' && !isDomesticForCustoms(from, to);
}

/**
 * Weights and sizes in the units of the Shipper's country: "The unit of measurement must be valid for the
 * Shipper country or territory" (Shipping.yaml). Pounds and inches from the US and PR, else kg and cm.
 */
export function usesImperialUnits(shipperCountry: string): boolean {
  return shipperCountry === 'US' || shipperCountry === 'PR';
}

/** Grams as UPS's `Weight` (at most 5 characters): kg or lb rounded up to a tenth, at least 0.1. */
export function upsWeight(grams: number, imperial: boolean): string {
  const amount = imperial ? grams / 453.59237 : grams / 1000;
  return (Math.max(1, Math.ceil(Math.round(amount * 1e6) / 1e5)) / 10).toFixed(1).replace(/\.0$/, '');
}

/** Centimetres as UPS's whole `Length`/`Width`/`Height`, rounded up, longest side first. */
export function upsDimensions(dimensions: { length: number; width: number; height: number }, imperial: boolean): string[] {
  return [dimensions.length, dimensions.width, dimensions.height]
    .map((cm) => (imperial ? cm / 2.54 : cm))
    .sort((a, b) => b - a)
    .map((side) => String(Math.max(1, Math.ceil(Math.round(side * 1e6) / 1e6))));
}
