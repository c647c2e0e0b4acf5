import type { BookRequest, CarrierFieldError } from '../booking.js';
import { many, text } from './fdxglb.json.js';

/**
 * FedEx's refusals (`errors[{code, message, parameterList}]`) → our field paths. FedEx's codes name the part
 * and the field they refuse, dot-separated: `RECIPIENTCONTACT.PHONENUMBER.INVALID` (the Ship API's schema),
 * `SHIPPER.POSTALSTATE.MISMATCH` and `RECIPIENT.POSTALSTATE.MISMATCH` (quoted with FedEx's messages in public
 * client code), `ACCOUNTNUMBER.REGISTRATION.REQUIRED` (the schema). The code is read part by part; a code that
 * names nothing of ours is matched by its message ("Recipient postal code …"); otherwise the refusal keeps
 * FedEx's message and names no field. Pure. docs/carriers/fdxglb.md lists what is known and what is assumed.
 */

export interface FedexMessage {
  code: string | null;
  message: string | null;
  parameters: Array<{ key: string | null; value: string | null }>;
}

/** The `errors[]` of a FedEx answer. */
export function fedexErrors(body: unknown): FedexMessage[] {
  const errors = body !== null && typeof body === 'object' ? (body as { errors?: unknown }).errors : undefined;
  return many(errors).map((error) => ({
    code: text(error.code),
    message: text(error.message),
    parameters: many(error.parameterList).map((p) => ({ key: text(p.key), value: text(p.value) })),
  }));
}

/** FedEx's `code: message` of each error, as shown to merchants. */
export function describeErrors(errors: readonly FedexMessage[]): string {
  return errors.map(quote).join('; ') || 'no reason given';
}

function quote(error: FedexMessage): string {
  return [error.code, error.message].filter(Boolean).join(': ') || 'no reason given';
}

type Target =
  | { party: 'shipper' | 'recipient'; field: string | null }
  | { path: ReadonlyArray<string | number> }
  | { parcels: 'weight' | 'dimensions' };

/** The first part of a code: whose data it is. */
const PARTS: Array<[RegExp, Target | 'shipper' | 'recipient']> = [
  [/^(SHIPPER|ORIGIN)(CONTACT|ADDRESS)?$/, 'shipper'],
  [/^RECIPIENTS?(CONTACT|ADDRESS)?$/, 'recipient'],
  [/^(ACCOUNTNUMBER|ACCOUNT|PAYOR|PAYMENT)$/, { path: ['carrier_reference'] }],
  [/^(SERVICETYPE|SERVICE)$/, { path: ['shipping_service'] }],
  [/^(HOLDATLOCATION|HOLDATLOCATIONDETAIL|HAL|LOCATIONID)$/, { path: ['pudo_location_uuid'] }],
  [/^(COMMODITY|COMMODITIES|CUSTOMSCLEARANCEDETAIL|HARMONIZEDCODE|CUSTOMSVALUE)$/, { path: ['line_items'] }],
  [/^(PACKAGE|PACKAGES|WEIGHT|TOTALWEIGHT)$/, { parcels: 'weight' }],
  [/^DIMENSIONS?$/, { parcels: 'dimensions' }],
];

/** Field words (of a code part or a message) → our address fields. */
const FIELDS: Array<[RegExp, string]> = [
  [/POSTAL\s*STATE|POSTAL\s*CODE|\bPOSTAL\b|\bZIP\b|POSTCODE/i, 'postal_code'],
  [/STATE\s*OR\s*PROVINCE|\bSTATE\b|PROVINCE/i, 'state_or_province'],
  [/PHONE/i, 'phone'],
  [/\bCITY\b/i, 'city'],
  [/COUNTRY/i, 'country_code'],
  [/E-?MAIL/i, 'email'],
  [/STREET|ADDRESS\s*LINE/i, 'line1'],
  [/PERSON\s*NAME/i, 'first_name'],
  [/COMPANY/i, 'company'],
];

function fieldOf(words: string): string | null {
  return FIELDS.find(([pattern]) => pattern.test(words))?.[1] ?? null;
}

function targetOfCode(code: string): Target | null {
  const parts = code.toUpperCase().split('.');
  const owner = PARTS.find(([pattern]) => pattern.test(parts[0]))?.[1];
  if (!owner) return null;
  if (owner === 'shipper' || owner === 'recipient') {
    // RECIPIENTCONTACT.PHONENUMBER…: the field is the next part; SHIPPER.POSTALSTATE.MISMATCH names the postal code.
    const field = fieldOf(parts.slice(1, 2).join(' ')) ?? (parts[0].endsWith('CONTACT') ? null : fieldOf(parts.slice(1).join(' ')));
    return { party: owner, field };
  }
  return owner;
}

function targetOfMessage(message: string): Target | null {
  if (/account\s*number/i.test(message)) return { path: ['carrier_reference'] };
  if (/hold\s*at\s*location|location\s*id/i.test(message)) return { path: ['pudo_location_uuid'] };
  const party = /\brecipient/i.test(message) ? 'recipient' : /\bshipper\b|\borigin\b/i.test(message) ? 'shipper' : null;
  if (party) return { party, field: fieldOf(message) };
  if (/service\s*type|\bservice\b/i.test(message)) return { path: ['shipping_service'] };
  if (/commodit|harmoni[sz]ed|customs\s*value/i.test(message)) return { path: ['line_items'] };
  if (/weight/i.test(message)) return { parcels: 'weight' };
  if (/dimension|length|girth/i.test(message)) return { parcels: 'dimensions' };
  return null;
}

function pathOf(target: Target, request: BookRequest): Array<string | number> {
  if ('path' in target) return [...target.path];
  if ('parcels' in target) {
    const own = request.parcels.length === 1 && request.parcels[0].weight_grams === request.weight_grams;
    return own ? [target.parcels] : ['carrier_metadata', 'parcels'];
  }
  const field = target.party === 'shipper' ? request.sender_field : request.recipient_field;
  return target.field === null ? [field] : [field, target.field];
}

/** Field errors for FedEx's refusal of a booking; empty when no error names one of our fields. */
export function fieldErrorsOf(errors: readonly FedexMessage[], request: BookRequest): CarrierFieldError[] {
  const found: CarrierFieldError[] = [];
  for (const error of errors) {
    const target = (error.code ? targetOfCode(error.code) : null) ?? targetOfMessage(error.message ?? '');
    if (!target) continue;
    const path = pathOf(target, request);
    const account = path[0] === 'carrier_reference' ? ' (check settings.account_number of the FedEx configuration)' : '';
    found.push({ path, message: `FedEx refused it: ${quote(error)}${account}` });
  }
  return found;
}
