import { type CountryCode, isSupportedCountry, type PhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Recipients' phone numbers, as merchants send them (`0151 1234 5678`, `+49 151 12345678`,
 * `(415) 555-2671`), made E.164 for SMS providers. libphonenumber-js with its full ("max") metadata checks
 * the digits against each country's numbering plan, not only the length, so a number that cannot exist is
 * refused before a provider charges for trying.
 */

/** Longest text read as a phone number; anything longer is not one. */
const MAX_INPUT = 64;

function parse(text: string, defaultCountry?: string | null): PhoneNumber | undefined {
  if (typeof text !== 'string') return undefined;
  let input = text.trim();
  if (input === '' || input.length > MAX_INPUT) return undefined;
  const country = (defaultCountry ?? '').trim().toUpperCase();
  const known = country !== '' && isSupportedCountry(country) ? (country as CountryCode) : undefined;
  // Without a country, `00` is read as the international prefix most of the world dials (`0049…` → `+49…`).
  if (!known && input.startsWith('00')) input = `+${input.slice(2)}`;
  return parsePhoneNumberFromString(input, known ? { defaultCountry: known } : undefined);
}

/**
 * The number in E.164 (`+4915112345678`), or null when it is not a valid number. National numbers need
 * `defaultCountry` (ISO 3166-1 alpha-2, e.g. the shipment's destination country); an unknown country is
 * ignored. Numbers with an extension are refused: a message cannot reach one.
 */
export function toE164(text: string, defaultCountry?: string | null): string | null {
  const phone = parse(text, defaultCountry);
  if (!phone || phone.ext || !phone.isValid()) return null;
  return phone.number;
}
