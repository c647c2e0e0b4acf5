import type { BookRequest, CarrierFieldError } from '../booking.js';
import { addressAt, partiesOf } from './upsglb.parties.js';
import type { UpsMessage } from './upsglb.payload.js';

/**
 * UPS's refusals (`response.errors[].code/message`) → our field paths. UPS's error list
 * (developer.ups.com/api/reference/shipping/errors) could not be read; the codes below are those quoted in
 * public issue trackers with UPS's own message (sources in docs/carriers/upsglb.md). A code not in the table
 * is matched by its message when UPS names a party and a field ("Missing or invalid ship to postal code",
 * "ShipTo PostalCode"); otherwise the refusal keeps UPS's message and names no field. Pure.
 */

type Party = 'shipper' | 'shipTo' | 'shipFrom';
type Target =
  | { party: Party; field: string | null }
  | { path: ReadonlyArray<string | number> }
  | { parcels: 'weight' | 'dimensions' }
  | { pudo: true };

/** The documented codes and what they name. */
export const UPS_ERROR_CODES: Readonly<Record<string, Target>> = {
  // "Missing or invalid shipper number" (the account number of the configuration)
  '120100': { path: ['carrier_reference'] },
  // "Missing/Invalid ShipTo PostalCode"
  '120207': { party: 'shipTo', field: 'postal_code' },
  // "Address Validation Error on Shipper address"
  '120801': { party: 'shipper', field: null },
  // "The requested service is invalid for the shipment origin"
  '121100': { path: ['shipping_service'] },
};

const PARTIES: Array<[RegExp, Party]> = [
  [/\bship\s*to\b/i, 'shipTo'],
  [/\bship\s*from\b/i, 'shipFrom'],
  [/\bshipper(?!\s*number)\b/i, 'shipper'],
];

const FIELDS: Array<[RegExp, string]> = [
  [/postal\s*code|\bzip\b|postcode/i, 'postal_code'],
  [/state\s*province|\bstate\b|\bprovince\b/i, 'state_or_province'],
  [/\bcity\b/i, 'city'],
  [/country/i, 'country_code'],
  [/phone/i, 'phone'],
  [/e-?mail/i, 'email'],
  [/address\s*line|\baddress\b/i, 'line1'],
  [/attention\s*name|\bname\b/i, 'name'],
];

/** What a message names: a party's field, the account, the service, parcels, or the Access Point. */
function targetOfMessage(message: string): Target | null {
  if (/shipper\s*number|account\s*number/i.test(message)) return { path: ['carrier_reference'] };
  if (/alternate\s*delivery\s*address|access\s*point/i.test(message)) return { pudo: true };
  const party = PARTIES.find(([pattern]) => pattern.test(message))?.[1];
  if (party) return { party, field: FIELDS.find(([pattern]) => pattern.test(message))?.[1] ?? null };
  if (/\bservice\b/i.test(message)) return { path: ['shipping_service'] };
  if (/weight/i.test(message)) return { parcels: 'weight' };
  if (/dimension|length|girth/i.test(message)) return { parcels: 'dimensions' };
  if (/commodity|tariff|harmoni[sz]ed/i.test(message)) return { path: ['line_items'] };
  return null;
}

function pathOf(target: Target, request: BookRequest): Array<string | number> {
  if ('path' in target) return [...target.path];
  if ('pudo' in target) return ['pudo_location_uuid'];
  if ('parcels' in target) {
    const own = request.parcels.length === 1 && request.parcels[0].weight_grams === request.weight_grams;
    return own ? [target.parcels] : ['carrier_metadata', 'parcels'];
  }
  const field = partiesOf(request)[target.party];
  if (target.field === null) return [field];
  if (target.field === 'name') return [field, addressAt(request, field)?.company ? 'company' : 'first_name'];
  return [field, target.field];
}

/** UPS's `code: message`, as shown to merchants. */
function quote(message: UpsMessage): string {
  return [message.code, message.message].filter(Boolean).join(': ') || 'no reason given';
}

/** Field errors for UPS's refusal of a booking; empty when no message names one of our fields. */
export function fieldErrorsOf(messages: readonly UpsMessage[], request: BookRequest): CarrierFieldError[] {
  const errors: CarrierFieldError[] = [];
  for (const message of messages) {
    const target = (message.code ? UPS_ERROR_CODES[message.code] : undefined) ?? targetOfMessage(message.message ?? '');
    if (!target) continue;
    const path = pathOf(target, request);
    const account = path[0] === 'carrier_reference' ? ' (check settings.account_number of the UPS configuration)' : '';
    errors.push({ path, message: `UPS refused it: ${quote(message)}${account}` });
  }
  return errors;
}
