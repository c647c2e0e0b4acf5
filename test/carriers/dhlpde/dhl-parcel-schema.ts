import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));

/**
 * The request schemas of DHL's Parcel DE Shipping API v2 (OpenAPI 2.1.12: `ShipmentOrderRequest`, `Shipment`,
 * `Shipper`, `ContactAddress`, `Locker`, `PostOffice`, `ShipmentDetails`, `VAS`, `CustomsDetails`, `Commodity`,
 * `Value`, `Weight`) and of the Returns API's order, written down field by field as this adapter relies on them:
 * allowed fields, required fields, lengths, patterns and enumerations. Each fault reads `<property path>: <why>`,
 * the way DHL reports a schema error.
 */

type Json = Record<string, unknown>;

interface Field {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';
  required?: boolean;
  min?: number;
  max?: number;
  pattern?: RegExp;
  values?: readonly string[];
  check?: (value: unknown, path: string) => string[];
}

const s = (min: number, max: number, extra: Partial<Field> = {}): Field => ({ type: 'string', min, max, ...extra });
const req = (field: Field): Field => ({ ...field, required: true });
const country: Field = {
  type: 'string',
  check: (v, p) => (countries.isValid(String(v)) && String(v).length === 3 ? [] : [`${p}: not an ISO 3166-1 alpha-3 code`]),
};
const postalCode = s(3, 10, { pattern: /^[0-9A-Za-z]+([ -]?[0-9A-Za-z]+)*$/ });
const billingNumber = s(14, 14, { pattern: /^\w{10}\d{2}\w{2}$/ });

function object(fields: Record<string, Field>): Field {
  return { type: 'object', check: (value, path) => checkObject(value, path, fields) };
}

const VALUE = object({ currency: req(s(3, 3, { pattern: /^[A-Z]{3}$/ })), value: req({ type: 'number', min: 0, max: 100_000 }) });
const WEIGHT = object({ uom: req({ type: 'string', values: ['g', 'kg'] }), value: req({ type: 'number', min: 0, max: 31_500 }) });

const SHIPPER_FIELDS = {
  name1: req(s(1, 50)),
  name2: s(1, 50),
  name3: s(1, 50),
  addressStreet: req(s(1, 50)),
  addressHouse: s(1, 10),
  postalCode,
  city: req(s(1, 40)),
  country: { ...country, required: true },
  contactName: s(3, 80),
  email: s(3, 80),
};

const CONTACT_ADDRESS = {
  ...SHIPPER_FIELDS,
  dispatchingInformation: s(1, 35),
  additionalAddressInformation1: s(1, 60),
  additionalAddressInformation2: s(1, 60),
  state: s(1, 20),
  phone: s(1, 20),
};

const LOCKER = {
  name: req(s(1, 50)),
  lockerID: req({ type: 'integer', min: 100, max: 999 }),
  postNumber: req(s(6, 10, { pattern: /^[0-9]{6,10}$/ })),
  city: req(s(0, 40)),
  country,
  postalCode: { ...postalCode, required: true },
};

const POST_OFFICE = {
  name: req(s(1, 50)),
  retailID: req({ type: 'integer', min: 401, max: 999 }),
  postNumber: s(3, 10, { pattern: /^[0-9]{6,10}$/ }),
  email: s(3, 80),
  city: req(s(0, 80)),
  country,
  postalCode: { ...postalCode, required: true },
};

const COMMODITY = object({
  itemDescription: req(s(1, 256)),
  countryOfOrigin: country,
  hsCode: s(6, 11),
  packagedQuantity: req({ type: 'integer', min: 1 }),
  itemValue: { ...VALUE, required: true },
  itemWeight: { ...WEIGHT, required: true },
});

const VAS = {
  preferredNeighbour: s(0, 100),
  preferredLocation: s(0, 100),
  visualCheckOfAge: { type: 'string', values: ['A16', 'A18'] } as Field,
  namedPersonOnly: { type: 'boolean' } as Field,
  signedForByRecipient: { type: 'boolean' } as Field,
  endorsement: { type: 'string', values: ['RETURN', 'ABANDON'] } as Field,
  preferredDay: s(10, 10, { pattern: /^\d{4}-\d{2}-\d{2}$/ }),
  noNeighbourDelivery: { type: 'boolean' } as Field,
  additionalInsurance: VALUE,
  bulkyGoods: { type: 'boolean' } as Field,
  premium: { type: 'boolean' } as Field,
  closestDropPoint: { type: 'boolean' } as Field,
  parcelOutletRouting: s(1, 80),
  postalDeliveryDutyPaid: { type: 'boolean' } as Field,
  dhlRetoure: object({ billingNumber: { ...billingNumber, required: true }, refNo: s(6, 50), returnAddress: object(CONTACT_ADDRESS) }),
};

const CUSTOMS = {
  invoiceNo: s(0, 35),
  exportType: req({ type: 'string', values: ['OTHER', 'PRESENT', 'COMMERCIAL_SAMPLE', 'DOCUMENT', 'RETURN_OF_GOODS', 'COMMERCIAL_GOODS'] }),
  exportDescription: s(0, 80),
  shippingConditions: { type: 'string', values: ['DDU', 'DAP', 'DDP', 'DDX', 'DXV'] } as Field,
  shipperCustomsRef: s(0, 35),
  consigneeCustomsRef: s(0, 35),
  postalCharges: { ...VALUE, required: true },
  items: req({
    type: 'array',
    min: 1,
    max: 99,
    check: (v, p) => (v as unknown[]).flatMap((item, i) => COMMODITY.check!(item, `${p}[${i}]`)),
  }),
};

const consignee: Field = {
  type: 'object',
  required: true,
  check: (value, path) => {
    const v = value as Json;
    if ('lockerID' in v) return checkObject(v, path, LOCKER);
    if ('retailID' in v) {
      const faults = checkObject(v, path, POST_OFFICE);
      return v.postNumber || v.email ? faults : [...faults, `${path}: a post office needs postNumber or email`];
    }
    return checkObject(v, path, CONTACT_ADDRESS);
  },
};

const SHIPMENT = object({
  product: req({ type: 'string', values: ['V01PAK', 'V53WPAK', 'V54EPAK', 'V62WP', 'V62KP', 'V66WPI'] }),
  billingNumber: { ...billingNumber, required: true },
  refNo: s(8, 35),
  costCenter: s(0, 50),
  creationSoftware: s(0, 50),
  shipDate: s(10, 10, { pattern: /^\d{4}-\d{2}-\d{2}$/ }),
  shipper: { ...object(SHIPPER_FIELDS), required: true },
  consignee,
  details: req(
    object({
      weight: { ...WEIGHT, required: true },
      dim: object({
        uom: req({ type: 'string', values: ['cm', 'mm'] }),
        height: req({ type: 'integer', min: 0 }),
        length: req({ type: 'integer', min: 0 }),
        width: req({ type: 'integer', min: 0 }),
      }),
    }),
  ),
  services: object(VAS),
  customs: object(CUSTOMS),
});

function typeFault(value: unknown, field: Field, path: string): string | null {
  const ok =
    field.type === 'array'
      ? Array.isArray(value)
      : field.type === 'object'
        ? value !== null && typeof value === 'object' && !Array.isArray(value)
        : field.type === 'integer'
          ? Number.isInteger(value)
          : typeof value === field.type && (field.type !== 'number' || Number.isFinite(value));
  return ok ? null : `${path}: must be ${field.type === 'integer' ? 'an integer' : `a ${field.type}`}`;
}

function checkField(value: unknown, field: Field, path: string): string[] {
  const wrongType = typeFault(value, field, path);
  if (wrongType) return [wrongType];
  const faults: string[] = [];
  if (typeof value === 'string') {
    if (field.min !== undefined && value.length < field.min) faults.push(`${path}: shorter than ${field.min}`);
    if (field.max !== undefined && value.length > field.max) faults.push(`${path}: longer than ${field.max}`);
    if (field.pattern && !field.pattern.test(value)) faults.push(`${path}: does not match the expected pattern`);
    if (field.values && !field.values.includes(value)) faults.push(`${path}: not one of ${field.values.join(', ')}`);
  } else if (typeof value === 'number') {
    if (field.min !== undefined && value < field.min) faults.push(`${path}: below ${field.min}`);
    if (field.max !== undefined && value > field.max) faults.push(`${path}: above ${field.max}`);
  } else if (Array.isArray(value)) {
    if (field.min !== undefined && value.length < field.min) faults.push(`${path}: fewer than ${field.min} items`);
    if (field.max !== undefined && value.length > field.max) faults.push(`${path}: more than ${field.max} items`);
  }
  return [...faults, ...(field.check ? field.check(value, path) : [])];
}

function checkObject(value: unknown, path: string, fields: Record<string, Field>): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: must be an object`];
  const faults: string[] = [];
  for (const key of Object.keys(value)) if (!(key in fields)) faults.push(`${path}.${key}: not a field of this object`);
  for (const [key, field] of Object.entries(fields)) {
    const v = (value as Json)[key];
    if (v === undefined) {
      if (field.required) faults.push(`${path}.${key}: required`);
      continue;
    }
    faults.push(...checkField(v, field, `${path}.${key}`));
  }
  return faults;
}

/** Everything in a `POST /orders` body that DHL's schema would refuse. */
export function orderFaults(body: unknown): string[] {
  return checkObject(body, 'body', {
    profile: req(s(0, 35)),
    shipments: req({
      type: 'array',
      min: 1,
      max: 30,
      check: (v) => (v as unknown[]).flatMap((shipment, i) => SHIPMENT.check!(shipment, `shipments[${i}]`)),
    }),
  }).map((fault) => fault.replace(/^body\./, ''));
}

/** Everything in a Returns API order that its schema would refuse. */
export function returnFaults(body: unknown): string[] {
  return checkObject(body, 'body', {
    receiverId: req(s(1, 30)),
    customerReference: s(0, 30),
    shipmentReference: s(0, 30),
    shipper: req(object({ ...CONTACT_ADDRESS, addressStreet: s(1, 50) })),
    itemWeight: WEIGHT,
    itemValue: VALUE,
    customsDetails: object({
      items: req({
        type: 'array',
        min: 1,
        max: 20,
        check: (v, p) => (v as unknown[]).flatMap((item, i) => COMMODITY.check!(item, `${p}[${i}]`)),
      }),
    }),
  }).map((fault) => fault.replace(/^body\./, ''));
}
