import { countryOf, fieldText as str } from '../sdk/parties.js';

/**
 * Our address fields in the shape of USPS's `DomesticLabelAddress` (Labels 3.9.4: `streetAddress`,
 * `secondaryAddress`, `city`, `state`, `ZIPCode`, `ZIPPlus4`, `firstName`, `lastName`, `firm`, `phone`, `email`).
 * Pure; every reader takes any JSON and returns text or null.
 */

export type Address = Record<string, unknown>;

/** The address stored in a field of the request (sender or recipient), and its country code. */
export { addressAt as addressOf, countryOf } from '../sdk/parties.js';

/** The state code: `state_or_province`, or the territory's own ISO code (PR, VI, GU…) when the address has none. */
export function stateOf(address: Address): string {
  const state = str(address.state_or_province).toUpperCase();
  if (state) return state;
  const country = countryOf(address);
  return country === 'US' ? '' : country;
}

/** First and last name; a full name given in `first_name` alone is split at its last space. */
export function personOf(address: Address): { first: string; last: string } {
  const first = str(address.first_name);
  const last = str(address.last_name);
  if (last || !first.includes(' ')) return { first, last };
  const at = first.lastIndexOf(' ');
  return { first: first.slice(0, at), last: first.slice(at + 1) };
}

/** Address lines with the field each comes from: line1 (or street name and house number), line2, line3. */
export function linesOf(address: Address): Array<{ field: string; text: string }> {
  const first = str(address.line1) || [str(address.house_number), str(address.street_name)].filter(Boolean).join(' ');
  return [
    { field: 'line1', text: first },
    { field: 'line2', text: str(address.line2) },
    { field: 'line3', text: str(address.line3) },
  ].filter((line) => line.text !== '');
}

/** `ZIPCode` (5 digits) and `ZIPPlus4` (4 digits or null), from `12345`, `12345-6789` or `123456789`; null otherwise. */
export function zipOf(address: Address): { zip: string; plus4: string | null } | null {
  const match = /^(\d{5})(?:-?(\d{4}))?$/.exec(str(address.postal_code).replace(/\s+/g, ''));
  return match ? { zip: match[1], plus4: match[2] ?? null } : null;
}

/**
 * `Phone` (`^\+?[1-9][0-9]{7,14}$`): the digits, without the North American country code 1 before a 10-digit
 * number; null when no such number can be made.
 */
export function phoneOf(address: Address): string | null {
  let digits = str(address.phone).replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  return /^[1-9][0-9]{7,14}$/.test(digits) ? digits : null;
}

/** `Email`: at most 50 characters of USPS's pattern; null otherwise. */
export function emailOf(address: Address): string | null {
  const email = str(address.email);
  return email.length <= 50 && /^[a-zA-Z0-9_+&*-]+(?:\.[a-zA-Z0-9_+&*-]+)*@(?:[a-zA-Z0-9-]+\.)+[a-zA-Z]{2,}$/.test(email) ? email : null;
}

/** An address in USPS's shape, with the person and company of `who` (for Hold For Pickup, the Post Office's address). */
export function uspsAddress(address: Address, who: Address = address): Record<string, unknown> {
  const lines = linesOf(address);
  const zip = zipOf(address);
  const person = personOf(who);
  const company = str(who.company);
  const phone = phoneOf(who);
  const email = emailOf(who);
  return {
    ...(person.first ? { firstName: person.first } : {}),
    ...(person.last ? { lastName: person.last } : {}),
    ...(company ? { firm: company } : {}),
    streetAddress: lines[0]?.text ?? '',
    ...(lines[1] ? { secondaryAddress: lines[1].text } : {}),
    city: str(address.city),
    state: stateOf(address),
    ZIPCode: zip?.zip ?? '',
    ...(zip?.plus4 ? { ZIPPlus4: zip.plus4 } : {}),
    ...(phone ? { phone } : {}),
    ...(email ? { email } : {}),
  };
}
