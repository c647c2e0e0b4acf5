import type { BookRequest } from '../booking.js';

/**
 * What booking adapters read from our addresses the same way whatever the carrier: the text of a field, the
 * country, the person's name, the street lines, a phone number's digits, the customs border and the units of
 * weights and sizes. What a carrier wants differently (limits, postal code forms, field names) stays with it.
 */

export type AddressFields = Readonly<Record<string, unknown>>;

/** A field's text with its runs of white space made one space and trimmed; '' when it is not text. */
export function fieldText(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
}

/** The ISO country code, upper case; '' without one. */
export function countryOf(address: AddressFields | null | undefined): string {
  return fieldText(address?.country_code).toUpperCase();
}

/** First and last name, as one. */
export function personOf(address: AddressFields): string {
  return [fieldText(address.first_name), fieldText(address.last_name)].filter(Boolean).join(' ');
}

/** The address of a field of the request (its sender or recipient); null for another field or a value that is not one. */
export function addressAt(request: BookRequest, field: string): Record<string, unknown> | null {
  const address = field === request.sender_field ? request.sender : field === request.recipient_field ? request.recipient : null;
  return address && typeof address === 'object' && !Array.isArray(address) ? address : null;
}

/** Address lines with the field each comes from: line1 (or street name and house number), line2, line3. */
export function linesOf(address: AddressFields): Array<{ field: string; text: string }> {
  const first = fieldText(address.line1) || [fieldText(address.street_name), fieldText(address.house_number)].filter(Boolean).join(' ');
  return [
    { field: 'line1', text: first },
    { field: 'line2', text: fieldText(address.line2) },
    { field: 'line3', text: fieldText(address.line3) },
  ].filter((line) => line.text !== '');
}

/** The North American numbering plan, where carriers want the 10-digit number without the country code 1. */
const NANP = new Set(['US', 'CA', 'PR', 'VI', 'GU']);

/** A phone number as digits only; in the North American numbering plan without a leading country code 1. */
export function phoneDigits(address: AddressFields): string {
  const digits = fieldText(address.phone).replace(/\D/g, '');
  if (NANP.has(countryOf(address)) && digits.length === 11 && digits.startsWith('1')) return digits.slice(1);
  return digits;
}

/** The European Union's customs territory (Monaco included): parcels inside it need no customs papers. */
const EU_CUSTOMS_TERRITORY = new Set('AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE MC'.split(' '));

export function inEuCustomsTerritory(country: string): boolean {
  return EU_CUSTOMS_TERRITORY.has(country);
}

/** Whether a parcel between two countries stays inside one customs territory: the same country, US and PR, or the EU. */
export function withinCustomsTerritory(from: string, to: string): boolean {
  if (from === to) return true;
  if ((from === 'US' && to === 'PR') || (from === 'PR' && to === 'US')) return true;
  return inEuCustomsTerritory(from) && inEuCustomsTerritory(to);
}

/** Whether the shipment crosses a customs border (both countries known), so the carrier needs its goods declared. */
export function crossesCustomsBorder(request: BookRequest): boolean {
  const from = countryOf(request.sender);
  const to = countryOf(request.recipient);
  return from !== '' && to !== '' && !withinCustomsTerritory(from, to);
}

/** Pounds and inches from the US and Puerto Rico, else kilograms and centimetres. */
export function usesImperialUnits(shipperCountry: string): boolean {
  return shipperCountry === 'US' || shipperCountry === 'PR';
}

/** Grams as kilograms or pounds rounded up to a tenth, at least 0.1 (float noise below a millionth ignored). */
export function weightInTenths(grams: number, imperial: boolean): number {
  const amount = imperial ? grams / 453.59237 : grams / 1000;
  return Math.max(1, Math.ceil(Math.round(amount * 1e6) / 1e5)) / 10;
}

/** Centimetres as whole centimetres or inches, each rounded up, longest side first. */
export function wholeSides(dimensions: { length: number; width: number; height: number }, imperial: boolean): number[] {
  return [dimensions.length, dimensions.width, dimensions.height]
    .map((cm) => (imperial ? cm / 2.54 : cm))
    .sort((a, b) => b - a)
    .map((side) => Math.max(1, Math.ceil(Math.round(side * 1e6) / 1e6)));
}
