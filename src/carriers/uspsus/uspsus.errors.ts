import type { BookRequest, CarrierFieldError } from '../booking.js';

/**
 * USPS's refusals (`ErrorMessage`: `error.errors[{ code, title, detail, source: { parameter } }]`) → our field
 * paths. `source.parameter` names "the input in the request which caused an error" (`toAddress.ZIPCode`,
 * `packageDescription.weight`); it is mapped to the field of ours the value came from. An entry without a
 * parameter, or naming one that is not ours, keeps USPS's message and names no field. Pure.
 */

export interface UspsErrorEntry {
  code: string | null;
  title: string | null;
  detail: string | null;
  parameter: string | null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : typeof value === 'number' ? String(value) : null;
}

/** The entries of an `ErrorMessage`; its `message` alone when it lists none. Empty when the body is not one. */
export function errorEntries(body: unknown): UspsErrorEntry[] {
  const error = (body as { error?: unknown } | null)?.error;
  if (!error || typeof error !== 'object') return [];
  const { errors, message, code } = error as { errors?: unknown; message?: unknown; code?: unknown };
  const entries = (Array.isArray(errors) ? errors : [])
    .filter((entry): entry is Record<string, unknown> => Boolean(entry) && typeof entry === 'object')
    .map((entry) => ({
      code: text(entry.code),
      title: text(entry.title),
      detail: text(entry.detail),
      parameter: text((entry.source as { parameter?: unknown } | null)?.parameter),
    }));
  if (entries.length > 0) return entries;
  return text(message) ? [{ code: text(code), title: null, detail: text(message), parameter: null }] : [];
}

/** USPS's words for an entry: `code title: detail`. */
export function quote(entry: UspsErrorEntry): string {
  const head = [entry.code, entry.title].filter(Boolean).join(' ');
  return [head, entry.detail].filter(Boolean).join(': ') || 'no reason given';
}

export function describe(entries: readonly UspsErrorEntry[]): string {
  return entries.map(quote).join('; ') || 'no reason given';
}

/** `DomesticLabelAddress` properties → our address fields. */
const ADDRESS_FIELDS: Readonly<Record<string, string>> = {
  streetaddress: 'line1',
  secondaryaddress: 'line2',
  city: 'city',
  state: 'state_or_province',
  zipcode: 'postal_code',
  zipplus4: 'postal_code',
  urbanization: 'line2',
  firstname: 'first_name',
  lastname: 'last_name',
  firm: 'company',
  phone: 'phone',
  email: 'email',
};

/** The parameter's names, without JSON path or pointer marks or indexes: `$.toAddress.ZIPCode` → `toaddress`, `zipcode`. */
function namesOf(parameter: string): string[] {
  return parameter
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '' && !/^\d+$/.test(part))
    .map((part) => part.toLowerCase());
}

function pathOf(parameter: string, request: BookRequest): Array<string | number> | null {
  const names = namesOf(parameter);
  const [root, leaf] = [names[0], names[1]];
  const own = request.parcels.length === 1 && request.parcels[0].weight_grams === request.weight_grams;
  const parcel = (name: string) => (own ? [name] : ['carrier_metadata', 'parcels', 0, name]);
  if (root === 'toaddress' || root === 'fromaddress') {
    const field = root === 'toaddress' ? request.recipient_field : request.sender_field;
    // Hold For Pickup: the address sent as toAddress is the Post Office's, chosen by its facility.
    if (
      root === 'toaddress' &&
      request.pudo_location &&
      (leaf === 'facilityid' || !['firstname', 'lastname', 'firm', 'phone', 'email'].includes(leaf))
    )
      return ['pudo_location_uuid'];
    const mapped = leaf ? ADDRESS_FIELDS[leaf] : undefined;
    return mapped ? [field, mapped] : [field];
  }
  if (root === 'packagedescription') {
    if (leaf === 'weight' || leaf === 'weightuom') return parcel('weight');
    if (['length', 'width', 'height', 'girth', 'dimensionsuom'].includes(leaf)) return parcel('dimensions');
    if (leaf === 'mailclass') return ['shipping_service'];
    if (leaf === 'rateindicator')
      return request.carrier_metadata.rate_indicator !== undefined ? ['carrier_metadata', 'rate_indicator'] : ['shipping_service'];
    if (leaf === 'processingcategory')
      return request.carrier_metadata.processing_category !== undefined
        ? ['carrier_metadata', 'processing_category']
        : parcel('dimensions');
    if (leaf === 'customerreference') return ['shipment_reference'];
    return null;
  }
  if (root === 'imageinfo') return request.carrier_metadata.label_format !== undefined ? ['carrier_metadata', 'label_format'] : null;
  if (['crid', 'mid', 'manifestmid', 'accountnumber', 'accounttype', 'permitzip', 'roles'].includes(root)) return ['carrier_reference'];
  return null;
}

/** Field errors for USPS's refusal of a booking; empty when no entry names one of our fields. */
export function fieldErrorsOf(entries: readonly UspsErrorEntry[], request: BookRequest): CarrierFieldError[] {
  const errors: CarrierFieldError[] = [];
  for (const entry of entries) {
    const path = entry.parameter ? pathOf(entry.parameter, request) : null;
    if (!path) continue;
    const account = path[0] === 'carrier_reference' ? ' (check the crid, mid and account settings of the USPS configuration)' : '';
    errors.push({ path, message: `USPS refused it: ${quote(entry)}${account}` });
  }
  return errors;
}
