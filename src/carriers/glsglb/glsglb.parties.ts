import { countryOf, personOf, fieldText as str } from '../sdk/parties.js';

/** Whether the parcel crosses a customs border (leaves or enters the EU's customs territory, or two non-EU countries). */
export { addressAt, countryOf, crossesCustomsBorder, fieldText as str, personOf } from '../sdk/parties.js';

/**
 * Who is who in a GLS ShipIT shipment, and our address fields in GLS's `Address` shape and limits. Pure.
 *
 * ShipIT books for the `Shipper.ContactID` of the configuration (the merchant's GLS contact); the address printed
 * as the sender is `Shipper.AlternativeShipperAddress`, and the parcel goes to `Consignee.Address`. An outbound
 * shipment goes from our sender to our recipient; a return label is the same with the addresses the other way
 * round (GLS's reverse logistics: the consumer as the sender, the merchant as the consignee), so in both cases the
 * consignee is the shipment's recipient field and the printed sender its sender field.
 */

/** GLS's limits (ShipIT fault samples: "Value is too long. Maximum is 40"; e-mail 80). */
export const LIMITS = { text: 40, email: 80 } as const;

/** Countries whose addresses have no postal code GLS could route by (Ireland's Eircode is optional). */
export const WITHOUT_POSTAL_CODE = new Set(['IE']);

/** `Name1`: the company, else the person. */
export function nameOf(address: Record<string, unknown>): string {
  return str(address.company) || personOf(address);
}

/** The street and house number: `street_name` + `house_number` when given, else `line1` whole (GLS splits nothing). */
export function streetOf(address: Record<string, unknown>): { street: string; number: string; field: 'street_name' | 'line1' } {
  const name = str(address.street_name);
  if (name) return { street: name, number: str(address.house_number), field: 'street_name' };
  return { street: str(address.line1), number: str(address.house_number), field: 'line1' };
}

/** A phone number as GLS prints it: `+` and digits (spaces and punctuation dropped). */
export function phoneOf(address: Record<string, unknown>): string {
  const raw = str(address.phone);
  const digits = raw.replace(/\D/g, '');
  if (!digits) return '';
  return raw.startsWith('+') ? `+${digits}` : digits;
}

/** A GLS `Address` of one of our addresses: names, street, postal code, city, country, contact details. */
export function glsAddress(address: Record<string, unknown>): Record<string, string> {
  const { street, number } = streetOf(address);
  const company = str(address.company);
  const person = personOf(address);
  const extra = [str(address.line2), str(address.line3)].filter(Boolean).join(', ');
  const out: Record<string, string> = {
    Name1: nameOf(address),
    CountryCode: countryOf(address),
    ZIPCode: str(address.postal_code),
    City: str(address.city),
    Street: street,
  };
  if (company && person) out.Name2 = person;
  if (extra) out.Name3 = extra;
  if (number) out.StreetNumber = number;
  if (str(address.state_or_province)) out.Province = str(address.state_or_province).slice(0, LIMITS.text);
  if (person) out.ContactPerson = person.slice(0, LIMITS.text);
  if (str(address.email)) out.eMail = str(address.email);
  const phone = phoneOf(address);
  if (phone) out.MobilePhoneNumber = phone;
  return out;
}

/** Grams as GLS's `Weight` in kg: rounded up to 10 g, at least 0.1 kg. */
export function glsWeight(grams: number): number {
  return Math.max(0.1, Math.ceil(Math.round(grams * 1000) / 10_000) / 100);
}
