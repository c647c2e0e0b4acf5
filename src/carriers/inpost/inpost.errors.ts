import type { BookRequest, CarrierFieldError } from '../booking.js';
import { ownParcel } from './inpost.booking.js';
import { addressOf } from './inpost.parties.js';
import { objectOf, textOf } from './inpost.payload.js';

/**
 * ShipX's refusals → our field paths. A `validation_failed` answer (HTTP 400) names the fields in `details`,
 * keyed by attribute with a list of error keys ("[1.23.0] API ShipX", "Form validation"): flat
 * (`{ "post_code": ["invalid_format"] }`), nested in lists of objects as ShipX sends forms
 * (`{ "receiver": [{ "phone": ["invalid"] }] }`), or with dotted keys (`receiver.address.post_code`). Every
 * ShipX path found is mapped to the merchant's field; one we do not know keeps ShipX's words and names no
 * field. Pure.
 */

/** One refused attribute: ShipX's path (parcel indices as numbers) and its error keys. */
export interface ShipxFieldError {
  path: Array<string | number>;
  keys: string[];
}

function segments(key: string): Array<string | number> {
  return key
    .split(/[.[\]]+/)
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** Every refused attribute of a `details` object, however ShipX nested it. */
export function flattenDetails(details: unknown, at: Array<string | number> = [], depth = 0): ShipxFieldError[] {
  if (depth > 8) return [];
  if (typeof details === 'string') return at.length > 0 ? [{ path: at, keys: [details] }] : [];
  if (Array.isArray(details)) {
    const keys = details.map((item) => textOf(item)).filter((key): key is string => key !== null);
    const nested = details.filter((item) => typeof item === 'object' && item !== null);
    const found: ShipxFieldError[] = keys.length > 0 && at.length > 0 ? [{ path: at, keys }] : [];
    // A list of forms: one object per parcel under `parcels`, else the one form ShipX wraps in a list.
    nested.forEach((item, index) => {
      const wrapped = at.at(-1) === 'parcels' && nested.length > 1 ? [...at, index] : at;
      found.push(...flattenDetails(item, wrapped, depth + 1));
    });
    return found;
  }
  const object = objectOf(details);
  if (!object) return [];
  return Object.entries(object).flatMap(([key, value]) => flattenDetails(value, [...at, ...segments(key)], depth + 1));
}

const PARTY_FIELDS: Record<string, string> = {
  phone: 'phone',
  email: 'email',
  first_name: 'first_name',
  last_name: 'last_name',
  name: 'first_name',
  company_name: 'company',
  city: 'city',
  post_code: 'postal_code',
  country_code: 'country_code',
  street: 'line1',
  line1: 'line1',
  line2: 'line2',
};

function partyPath(request: BookRequest, field: string, rest: Array<string | number>): Array<string | number> {
  const attribute = String(rest.filter((part) => part !== 'address').at(-1) ?? '');
  if (attribute === 'building_number') {
    const address = addressOf(request, field);
    return [field, address?.house_number ? 'house_number' : 'line1'];
  }
  if (attribute === 'street') {
    const address = addressOf(request, field);
    return [field, address?.street_name && !address?.line1 ? 'street_name' : 'line1'];
  }
  const mapped = PARTY_FIELDS[attribute];
  return mapped ? [field, mapped] : [field];
}

function parcelPath(request: BookRequest, rest: Array<string | number>): Array<string | number> {
  const index = typeof rest[0] === 'number' ? rest[0] : null;
  const attribute = String(rest.find((part) => typeof part === 'string') ?? '');
  if (attribute === 'template') return ['carrier_metadata', 'parcel_template'];
  const what = attribute === 'weight' ? 'weight' : 'dimensions';
  if (ownParcel(request)) return [what];
  return index !== null && index < request.parcels.length ? ['carrier_metadata', 'parcels', index, what] : ['carrier_metadata', 'parcels'];
}

/** Our field for a ShipX path, or null when it names none of ours. */
export function ourPath(request: BookRequest, path: ReadonlyArray<string | number>): Array<string | number> | null {
  const [root, ...rest] = path;
  switch (root) {
    case 'receiver':
      return partyPath(request, request.recipient_field, rest);
    case 'sender':
      return partyPath(request, request.sender_field, rest);
    case 'parcels':
      return parcelPath(request, rest);
    case 'service':
      return ['shipping_service'];
    case 'reference':
      return ['shipment_reference'];
    case 'custom_attributes': {
      const attribute = String(rest.find((part) => typeof part === 'string') ?? '');
      if (attribute === 'target_point') return request.pudo_location ? ['pudo_location_uuid'] : ['carrier_metadata', 'target_point'];
      if (attribute === 'sending_method' || attribute === 'dropoff_point') return ['carrier_metadata', attribute];
      return null;
    }
    default:
      return null;
  }
}

/** ShipX's words for one attribute: `receiver.phone: invalid`. */
export function describeField(error: ShipxFieldError): string {
  return `${error.path.join('.')}: ${error.keys.join(', ') || 'invalid'}`;
}

/** Field errors for a `validation_failed` answer; empty when no attribute names one of our fields. */
export function fieldErrorsOf(details: unknown, request: BookRequest): CarrierFieldError[] {
  const errors: CarrierFieldError[] = [];
  for (const error of flattenDetails(details)) {
    const path = ourPath(request, error.path);
    if (path) errors.push({ path, message: `InPost refused it: ${describeField(error)}` });
  }
  return errors;
}
