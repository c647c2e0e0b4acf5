import { Ajv } from 'ajv';

/**
 * The request schema the local ShipX checks a created shipment against. InPost publishes no OpenAPI document
 * of ShipX: this schema is ours, written from InPost's pages "[1.23.0] Shipment creation in offer mode",
 * "Creating a shipment in the simplified mode" and "Form validation" (ReceiverForm, SenderForm, AddressForm,
 * ParcelsSimpleForm, DimensionsSimpleForm, WeightSimpleForm, CustomAttributesForm), read 2026-11-29. What the
 * pages state: `receiver` and `parcels` (1 to 1000) required; a parcel's `template`, or its `dimensions` and
 * `weight`; dimensions of at least 1 (in mm), weights in kg; `reference` of 3 to 100 characters; `sending_method`
 * one of its listed values; `is_return` a boolean. Attributes the pages do not list are refused, so that a typo
 * of ours shows.
 */

const address = {
  type: 'object',
  additionalProperties: false,
  required: ['street', 'building_number', 'city', 'post_code', 'country_code'],
  properties: {
    street: { type: 'string', minLength: 1 },
    building_number: { type: 'string', minLength: 1 },
    city: { type: 'string', minLength: 1 },
    post_code: { type: 'string', pattern: '^[0-9]{2}-[0-9]{3}$' },
    country_code: { type: 'string', pattern: '^[A-Z]{2}$' },
  },
};

const party = {
  type: 'object',
  additionalProperties: false,
  properties: {
    company_name: { type: 'string', minLength: 1, maxLength: 255 },
    first_name: { type: 'string', minLength: 1 },
    last_name: { type: 'string', minLength: 1 },
    email: { type: 'string', pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$' },
    phone: { type: 'string', pattern: '^[0-9]{9}$' },
    address,
  },
};

const parcel = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1 },
    template: { enum: ['small', 'medium', 'large'] },
    dimensions: {
      type: 'object',
      additionalProperties: false,
      required: ['length', 'width', 'height', 'unit'],
      properties: {
        length: { type: 'number', minimum: 1 },
        width: { type: 'number', minimum: 1 },
        height: { type: 'number', minimum: 1 },
        unit: { const: 'mm' },
      },
    },
    weight: {
      type: 'object',
      additionalProperties: false,
      required: ['amount', 'unit'],
      properties: { amount: { type: 'number', exclusiveMinimum: 0 }, unit: { const: 'kg' } },
    },
    is_non_standard: { type: 'boolean' },
  },
  // "dimensions ... becomes required when the template attribute is not provided", and so does weight.
  anyOf: [{ required: ['template'] }, { required: ['dimensions', 'weight'] }],
};

export const CREATE_SHIPMENT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['receiver', 'parcels', 'service'],
  properties: {
    receiver: party,
    sender: party,
    parcels: { type: 'array', minItems: 1, maxItems: 1000, items: parcel },
    custom_attributes: {
      type: 'object',
      additionalProperties: false,
      properties: {
        target_point: { type: 'string', minLength: 1 },
        dropoff_point: { type: 'string', minLength: 1 },
        sending_method: { enum: ['parcel_locker', 'pok', 'pop', 'courier_pok', 'branch', 'dispatch_order', ''] },
      },
    },
    service: { type: 'string', minLength: 1 },
    reference: { type: 'string', minLength: 3, maxLength: 100 },
    is_return: { type: 'boolean' },
  },
};

const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(CREATE_SHIPMENT_SCHEMA);

/** What the schema refuses in a create body: `path message` lines, none when it is valid. */
export function createProblems(body: unknown): string[] {
  if (validate(body)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'invalid'}`);
}
