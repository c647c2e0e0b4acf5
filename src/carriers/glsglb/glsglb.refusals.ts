import type { BookRequest, CarrierFieldError } from '../booking.js';
import type { CarrierResponse } from '../sdk/http.js';
import { str } from './glsglb.parties.js';

/**
 * GLS ShipIT refusals → our field errors. Pure. ShipIT answers a refused request with HTTP 400 and says why in
 * the response headers `error` (`INVALID_FIELD_VALUE`, `MANDATORY_PARAMETER_NOT_SET`, `INVALID_SERVICE_SELECTION`,
 * …) and `message` ("Invalid field Shipment.Consignee.Address.ZIPCode. Value … is not a valid value. …"), with
 * the values in `args` (ShipIT REST "Webservices Fault Responses Samples"). A JSON body with the same words is
 * read too (a gateway may put them there).
 */

export interface GlsRefusal {
  /** GLS's error code (`error`), '' when it gave none. */
  code: string;
  /** GLS's message, '' when it gave none. */
  message: string;
}

function header(response: CarrierResponse, name: string): string {
  const value = response.headers[name];
  return str(Array.isArray(value) ? value.join(' ') : value);
}

/** What GLS said when it refused: its headers, else a JSON body's `error`/`message`; null when it said nothing. */
export function refusalOf(response: CarrierResponse): GlsRefusal | null {
  let code = header(response, 'error');
  let message = header(response, 'message');
  const args = header(response, 'args');
  if (!code && !message) {
    const body = response.json();
    const json = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    code = str(json.error) || str(json.code);
    message = str(json.message);
  }
  if (!code && !message) return null;
  return { code, message: args && !message.includes(args) ? `${message} (${args})` : message };
}

export function describeRefusal(refusal: GlsRefusal): string {
  return [refusal.code, refusal.message].filter(Boolean).join(': ');
}

/** The GLS field a message names: "Invalid field X." or "The Mandatory parameter X is not set". */
function fieldNamed(message: string): string | null {
  const match =
    /invalid field\s+([A-Za-z0-9_.]+?)\.?\s+value/i.exec(message) ?? /mandatory parameter\s+([A-Za-z0-9_.]+)\s+is not set/i.exec(message);
  return match ? match[1].toLowerCase() : null;
}

/** Our address field of the last part of a GLS address field name. */
function addressField(part: string, address: Record<string, unknown> | null): string | null {
  switch (part) {
    case 'zip':
    case 'zipcode':
      return 'postal_code';
    case 'countrycode':
      return 'country_code';
    case 'city':
      return 'city';
    case 'street':
      return str(address?.street_name) ? 'street_name' : 'line1';
    case 'streetnumber':
      return str(address?.house_number) ? 'house_number' : 'line1';
    case 'name1':
      return str(address?.company) ? 'company' : 'first_name';
    case 'name2':
    case 'contactperson':
      return 'first_name';
    case 'name3':
      return 'line2';
    case 'email':
    case 'wrong_format':
      return 'email';
    case 'mobilephonenumber':
    case 'fixedlinephonenumber':
    case 'phone':
      return 'phone';
    case 'province':
      return 'state_or_province';
    default:
      return null;
  }
}

/** Where in the request a GLS field name points; null when it names nothing of ours. */
function pathOf(field: string, request: BookRequest): Array<string | number> | null {
  const parts = field.split('.').filter((p) => p !== 'shipmentrequestdata' && p !== 'shipment' && p !== 'address');
  const [first, ...rest] = parts;
  const last = rest.filter((p) => p !== 'toolow' && p !== 'wrong_format').at(-1) ?? rest.at(-1) ?? '';
  if (first === 'consignee') {
    const sub = addressField(last, request.recipient);
    return sub ? [request.recipient_field, sub] : [request.recipient_field];
  }
  if (first === 'shipper') {
    if (last === 'contactid') return ['carrier_reference'];
    const sub = addressField(last, request.sender);
    return sub ? [request.sender_field, sub] : [request.sender_field];
  }
  if (first === 'product') return ['shipping_service'];
  if (first === 'shipmentunit') {
    if (parts.includes('weight')) {
      const own = request.parcels.length === 1 && request.parcels[0].weight_grams === request.weight_grams;
      return own ? ['weight'] : ['carrier_metadata', 'parcels'];
    }
    if (last === 'shipmentunitreference') return ['shipment_reference'];
    return null;
  }
  if (first === 'shipmentreference') return ['shipment_reference'];
  if (first === 'service' && (parts.includes('shopdelivery') || parts.includes('parcelshopid')) && request.pudo_location)
    return ['pudo_location_uuid'];
  if (first === 'incoterm') return [request.recipient_field, 'country_code'];
  return null;
}

/** The field errors of a refusal, on our paths; none when GLS named no field of ours. */
export function fieldErrorsOf(refusal: GlsRefusal, request: BookRequest): CarrierFieldError[] {
  const said = `GLS refused the booking: ${describeRefusal(refusal)}`;
  const field = fieldNamed(refusal.message);
  if (field) {
    const path = pathOf(field, request);
    return path ? [{ path, message: said }] : [];
  }
  if (refusal.code === 'NUMBER_EXCEEDS_LENGTH') return [{ path: [request.recipient_field, 'phone'], message: said }];
  if (refusal.code === 'INVALID_SERVICE_SELECTION' && request.pudo_location) return [{ path: ['pudo_location_uuid'], message: said }];
  return [];
}

/** One issue of a `ValidateParcelsResponse` (`ValidationResult.Issues[]`): GLS's rule, where, and its values. */
export interface GlsIssue {
  rule: string;
  location: string;
  parameters: string[];
}

/** A `ValidateParcelsResponse`: whether GLS found the shipment bookable, and its issues; null when it is not one. */
export function readValidation(body: unknown): { success: boolean; issues: GlsIssue[] } | null {
  const json = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  const result = json?.ValidationResult;
  if (!json || (typeof json.Success !== 'boolean' && (typeof result !== 'object' || result === null))) return null;
  const raw = typeof result === 'object' && result !== null ? (result as Record<string, unknown>).Issues : undefined;
  const issues = (Array.isArray(raw) ? raw : [])
    .filter((issue): issue is Record<string, unknown> => typeof issue === 'object' && issue !== null)
    .map((issue) => ({
      rule: str(issue.Rule),
      location: str(issue.Location),
      parameters: Array.isArray(issue.Parameters) ? issue.Parameters.map(str).filter(Boolean) : [],
    }))
    .filter((issue) => issue.rule !== '');
  return { success: json.Success !== false && issues.length === 0, issues };
}

export function describeIssue(issue: GlsIssue): string {
  const detail = [issue.location, ...issue.parameters].filter(Boolean).join(', ');
  return detail ? `${issue.rule} (${detail})` : issue.rule;
}

/**
 * Where a validation rule points (rule names as ShipIT's validation answers them): the address GLS's `Location`
 * names (the shipper's, else the consignee's) for address and routing rules, the product for product rules, the
 * ParcelShop for a service combination of a booking to one; null for rules naming nothing of ours (`COMMON`, …).
 */
function issuePath(issue: GlsIssue, request: BookRequest): Array<string | number> | null {
  const field = /shipper/i.test(issue.location) ? request.sender_field : request.recipient_field;
  switch (issue.rule) {
    case 'ADDRESS_VALID_ZIPCODE':
    case 'SHIPMENT_VALID_ROUTING':
      return [field, 'postal_code'];
    case 'SHIPMENT_VALID_INCOTERM_IF_NEEDED':
      return [request.recipient_field, 'country_code'];
    case 'ARTICLES_PRODUCT_WEIGHT': {
      const own = request.parcels.length === 1 && request.parcels[0].weight_grams === request.weight_grams;
      return own ? ['weight'] : ['carrier_metadata', 'parcels'];
    }
    case 'ARTICLES_PRODUCT_MUST_BE_SET':
    case 'ARTICLES_VALID_FOR_COUNTRY':
    case 'ARTICLES_DESTINATION_EXCLUSIONS':
    case 'ARTICLES_EXPRESS_SATURDAY':
      return ['shipping_service'];
    case 'ARTICLE_COMBINATIONS':
      return request.pudo_location ? ['pudo_location_uuid'] : ['shipping_service'];
    default:
      return null;
  }
}

/** The field errors of validation issues, on our paths; issues naming nothing of ours are left to the message. */
export function issueErrors(issues: readonly GlsIssue[], request: BookRequest): CarrierFieldError[] {
  const errors: CarrierFieldError[] = [];
  for (const issue of issues) {
    const path = issuePath(issue, request);
    if (path) errors.push({ path, message: `GLS would refuse the booking: ${describeIssue(issue)}` });
  }
  return errors;
}
