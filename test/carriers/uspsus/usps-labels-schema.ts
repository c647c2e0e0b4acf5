import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

/**
 * The request schemas the local USPS checks what it receives against, written for these tests from USPS's
 * OpenAPI documents "Labels" 3.9.4 (`LabelRequest`, `ReturnLabelRequest` and the schemas they use) and the
 * Payments 3.0 description of `roles`, as published on developers.usps.com. USPS's documents carry no license
 * that allows copying them, so they are not vendored: what is below states, in our own JSON Schema, the
 * properties, required fields, enumerations, patterns and lengths those documents give for the parts Waybill
 * sends. `additionalProperties: false` where USPS's schema says so (the request roots, `Container`), true
 * elsewhere, as there.
 */

const STATE =
  '^(AA|AE|AL|AK|AP|AS|AZ|AR|CA|CO|CT|DE|DC|FM|FL|GA|GU|HI|ID|IL|IN|IA|KS|KY|LA|ME|MH|MD|MA|MI|MN|MS|MO|MP|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PW|PA|PR|RI|SC|SD|TN|TX|UT|VT|VI|VA|WA|WV|WI|WY)$';

const address = {
  type: 'object',
  required: ['streetAddress', 'city', 'state', 'ZIPCode'],
  properties: {
    streetAddress: { type: 'string', minLength: 1, maxLength: 50 },
    secondaryAddress: { type: 'string', maxLength: 50 },
    city: { type: 'string', minLength: 1, maxLength: 28 },
    state: { type: 'string', minLength: 2, maxLength: 2, pattern: STATE },
    ZIPCode: { type: 'string', pattern: '^\\d{5}$' },
    ZIPPlus4: { type: ['string', 'null'], pattern: '^\\d{4}$' },
    urbanization: { type: 'string', maxLength: 96 },
    firstName: { type: 'string', minLength: 1, maxLength: 50 },
    lastName: { type: 'string', minLength: 1, maxLength: 50 },
    firm: { type: 'string', maxLength: 50 },
    phone: { type: 'string', pattern: '^\\+?[1-9][0-9]{7,14}$' },
    email: { type: 'string', maxLength: 50, pattern: '^[a-zA-Z0-9_+&*-]+(?:\\.[a-zA-Z0-9_+&*-]+)*@(?:[a-zA-Z0-9-]+\\.)+[a-zA-Z]{2,}$' },
    ignoreBadAddress: { type: 'boolean' },
  },
  additionalProperties: true,
};

const toAddress = {
  ...address,
  properties: {
    ...address.properties,
    parcelLockerDelivery: { type: 'boolean' },
    holdForPickup: { type: 'boolean' },
    facilityId: { type: 'string', maxLength: 7 },
  },
};

const imageInfo = {
  type: 'object',
  properties: {
    imageType: { enum: ['PDF', 'TIFF', 'JPG', 'PNG', 'GIF', 'SVG', 'ZPL203DPI', 'ZPL300DPI', 'LABEL_BROKER', 'NONE'] },
    labelType: { enum: ['4X4LABEL', '4X5LABEL', '4X6LABEL', '6X4LABEL', '2X7LABEL'] },
    receiptOption: { enum: ['SAME_PAGE', 'SEPARATE_PAGE', 'NONE'] },
    suppressPostage: { type: 'boolean' },
    suppressMailDate: { type: 'boolean' },
    returnLabel: { type: 'boolean' },
  },
  additionalProperties: true,
};

const positive = { type: 'number', exclusiveMinimum: 0 };
const processingCategory = { enum: ['LETTERS', 'FLATS', 'MACHINABLE', 'IRREGULAR', 'NON_MACHINABLE', 'NONSTANDARD'] };
const customerReference = {
  type: 'array',
  maxItems: 4,
  items: {
    type: 'object',
    properties: { referenceNumber: { type: 'string', minLength: 1, maxLength: 30 }, printReferenceNumber: { type: 'boolean' } },
    additionalProperties: true,
  },
};
const packageBase = {
  weightUOM: { enum: ['lb'] },
  weight: positive,
  dimensionsUOM: { enum: ['in'] },
  length: positive,
  width: positive,
  height: positive,
  girth: positive,
  processingCategory,
  customerReference,
};

const domesticPackage = {
  type: 'object',
  required: [
    'mailClass',
    'rateIndicator',
    'weight',
    'length',
    'width',
    'height',
    'processingCategory',
    'mailingDate',
    'destinationEntryFacilityType',
  ],
  properties: {
    ...packageBase,
    mailClass: {
      enum: [
        'PARCEL_SELECT',
        'PARCEL_SELECT_LIGHTWEIGHT',
        'USPS_CONNECT_LOCAL',
        'USPS_CONNECT_REGIONAL',
        'USPS_CONNECT_MAIL',
        'USPS_GROUND_ADVANTAGE',
        'PRIORITY_MAIL_EXPRESS',
        'PRIORITY_MAIL',
        'FIRST-CLASS_PACKAGE_SERVICE',
        'LIBRARY_MAIL',
        'MEDIA_MAIL',
        'BOUND_PRINTED_MATTER',
      ],
    },
    rateIndicator: {
      enum: '3D 3N 3R 5D BA BB CP CM DC DE DF DN DR E4 E6 FA FB FE FP FS LC LF LL LO LS NP OS P5 P6 P7 P8 P9 Q6 Q7 Q8 Q9 Q0 PA PL PM PR SN SP SR'.split(
        ' ',
      ),
    },
    destinationEntryFacilityType: {
      enum: [
        'NONE',
        'DESTINATION_NETWORK_DISTRIBUTION_CENTER',
        'DESTINATION_SECTIONAL_CENTER_FACILITY',
        'DESTINATION_DELIVERY_UNIT',
        'DESTINATION_SERVICE_HUB',
      ],
    },
    mailingDate: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}' },
  },
  additionalProperties: true,
};

const returnsPackage = {
  type: 'object',
  required: ['mailClass', 'rateIndicator', 'weight', 'length', 'width', 'height', 'processingCategory'],
  properties: {
    ...packageBase,
    mailClass: {
      enum: [
        'FIRST-CLASS_PACKAGE_RETURN_SERVICE',
        'GROUND_RETURN_SERVICE',
        'PRIORITY_MAIL_EXPRESS_RETURN_SERVICE',
        'PRIORITY_MAIL_RETURN_SERVICE',
        'USPS_GROUND_ADVANTAGE_RETURN_SERVICE',
      ],
    },
    rateIndicator: { enum: 'CP DN DR E4 E6 FA FB FE FP FS OS P5 P6 P7 P8 P9 PA PL PM Q6 Q7 Q8 Q9 Q0 SP'.split(' ') },
  },
  additionalProperties: true,
};

const SCHEMAS = {
  LabelRequest: {
    type: 'object',
    required: ['fromAddress', 'packageDescription', 'toAddress'],
    properties: {
      imageInfo,
      toAddress,
      fromAddress: address,
      senderAddress: address,
      returnAddress: address,
      packageDescription: domesticPackage,
      customsForm: { type: 'object' },
    },
    additionalProperties: false,
  },
  ReturnLabelRequest: {
    type: 'object',
    required: ['fromAddress', 'packageDescription', 'toAddress'],
    properties: {
      imageInfo,
      toAddress: address,
      fromAddress: address,
      senderAddress: address,
      returnAddress: address,
      packageDescription: returnsPackage,
      customsForm: { type: 'object' },
    },
    additionalProperties: false,
  },
  PaymentAuthorizationRequest: {
    type: 'object',
    required: ['roles'],
    properties: {
      roles: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['roleName', 'CRID'],
          properties: {
            roleName: { enum: ['PAYER', 'LABEL_OWNER', 'RATE_HOLDER', 'PLATFORM', 'SHIPPER'] },
            CRID: { type: 'string', pattern: '^\\d{4,15}$' },
            MID: { type: 'string', pattern: '^(\\d{6}|\\d{9})$' },
            manifestMID: { type: 'string', pattern: '^(\\d{6}|\\d{9})$' },
            accountType: { enum: ['EPS', 'PERMIT', 'METER'] },
            accountNumber: { type: 'string', minLength: 1 },
            permitZIP: { type: 'string', pattern: '^\\d{5}$' },
          },
          additionalProperties: false,
        },
      },
    },
    additionalProperties: false,
  },
} as const;

export type UspsSchema = keyof typeof SCHEMAS;

let compiled: Record<UspsSchema, ValidateFunction> | undefined;

/** What the schema finds wrong with a body (`path: message`), none when it is valid. */
export function schemaProblems(schema: UspsSchema, body: unknown): string[] {
  compiled ??= (() => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    return Object.fromEntries(Object.entries(SCHEMAS).map(([name, s]) => [name, ajv.compile(s)])) as Record<UspsSchema, ValidateFunction>;
  })();
  const validate = compiled[schema];
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (e: ErrorObject) => `${e.instancePath || '/'}: ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
}
