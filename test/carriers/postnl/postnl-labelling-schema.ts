import { Ajv, type ErrorObject } from 'ajv';

/**
 * The Labelling API v2_2 request (`POST /shipment/v2_2/label`) as a JSON Schema, written by us from PostNL's
 * documentation of its models (LabellingRequest, LabellingCustomer, CustomerAddress, LabellingCustomerMessage,
 * LabellingCustomerShipment, Address, Contact, Dimension, Group, ProductOption; field names, required fields,
 * lengths and patterns as documented, read 2026-11-29). PostNL publishes its swagger document only on its API
 * hosts, without a license to redistribute it, so it is not vendored. The rules the models state in words only
 * (a name or a company, the 02 address somewhere, multi-collo groups) are checked by the local server itself.
 */

const text = (max: number) => ({ type: 'string', maxLength: max });
const TIMESTAMP = '^[0-3]\\d-[01]\\d-[12]\\d{3}\\s[0-2]\\d:[0-5]\\d:[0-5]\\d$';

const address = {
  type: 'object',
  additionalProperties: false,
  required: ['AddressType', 'Countrycode'],
  properties: {
    AddressType: { type: 'string', pattern: '^\\d{2}$' },
    Area: text(35),
    Buildingname: text(35),
    City: text(35),
    CompanyName: text(35),
    Countrycode: { type: 'string', pattern: '^[A-Z]{2}$' },
    Department: text(35),
    Doorcode: text(35),
    FirstName: text(35),
    Floor: text(35),
    HouseNr: text(35),
    HouseNrExt: text(35),
    Name: text(35),
    Region: text(35),
    Street: text(95),
    StreetHouseNrExt: { type: 'string' },
    Zipcode: text(17),
  },
};

const contact = {
  type: 'object',
  additionalProperties: false,
  required: ['ContactType'],
  properties: {
    ContactType: { type: 'string', pattern: '^\\d{2}$' },
    Email: text(50),
    SMSNr: { type: 'string', minLength: 10, maxLength: 17 },
    TelNr: { type: 'string', minLength: 10, maxLength: 17 },
  },
};

const positive = { type: 'integer', minimum: 1 };

const shipment = {
  type: 'object',
  additionalProperties: false,
  required: ['Addresses', 'Barcode', 'Dimension', 'ProductCodeDelivery'],
  properties: {
    Addresses: { type: 'array', minItems: 1, items: address },
    Amounts: { type: 'array' },
    Barcode: { type: 'string', minLength: 11, maxLength: 15 },
    CodingText: text(35),
    CollectionTimeStampStart: { type: 'string', pattern: TIMESTAMP },
    CollectionTimeStampEnd: { type: 'string', pattern: TIMESTAMP },
    Contacts: { type: 'array', items: contact },
    Content: text(35),
    CostCenter: text(35),
    CustomerOrderNumber: text(35),
    Customs: { type: 'object' },
    DeliveryAddress: { type: 'string', pattern: '^\\d{2}$' },
    DeliveryDate: { type: 'string', pattern: TIMESTAMP },
    Dimension: {
      type: 'object',
      additionalProperties: false,
      required: ['Weight'],
      properties: { Height: positive, Length: positive, Volume: positive, Weight: positive, Width: positive },
    },
    DownPartnerBarcode: text(35),
    DownPartnerID: text(50),
    DownPartnerLocation: text(10),
    Groups: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['GroupType', 'MainBarcode'],
        properties: {
          GroupType: { type: 'string', pattern: '^\\d{2}$' },
          GroupSequence: { type: 'integer' },
          GroupCount: { type: 'integer' },
          MainBarcode: { type: 'string', minLength: 11, maxLength: 15 },
        },
      },
    },
    HazardousMaterial: { type: 'array' },
    ProductCodeCollect: { type: 'string' },
    ProductCodeDelivery: { type: 'string', pattern: '^\\d{4,5}$' },
    ProductOptions: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['Characteristic', 'Option'],
        properties: { Characteristic: { type: 'string', pattern: '^\\d{3}$' }, Option: { type: 'string', pattern: '^\\d{3}$' } },
      },
    },
    ReceiverDateOfBirth: { type: 'string', pattern: '^([0-3]\\d-[01]\\d-[12]\\d{3})$' },
    Reference: { type: 'string' },
    ReferenceCollect: { type: 'string' },
    Remark: { type: 'string' },
    ReturnBarcode: { type: 'string' },
    ReturnReference: { type: 'string' },
    TimeslotID: { type: 'string' },
    ExtraFields: { type: 'array' },
  },
};

export const LABELLING_REQUEST_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['Customer', 'Message', 'Shipments'],
  properties: {
    Customer: {
      type: 'object',
      additionalProperties: false,
      required: ['CustomerCode', 'CustomerNumber'],
      properties: {
        Address: {
          ...address,
          required: ['AddressType', 'City', 'Countrycode'],
          properties: { ...address.properties, AddressType: { const: '02' } },
        },
        CollectionLocation: { type: 'string', minLength: 6, maxLength: 6 },
        ContactPerson: { type: 'string' },
        CustomerCode: { type: 'string', minLength: 1, maxLength: 6 },
        CustomerNumber: { type: 'string', minLength: 1, maxLength: 8 },
        Email: text(50),
        Name: text(35),
      },
    },
    LabelSignature: { type: 'string', maxLength: 65_536 },
    Message: {
      type: 'object',
      additionalProperties: false,
      required: ['MessageID', 'MessageTimeStamp', 'Printertype'],
      properties: {
        MessageID: { type: 'string', minLength: 1, maxLength: 12 },
        MessageTimeStamp: { type: 'string', pattern: TIMESTAMP },
        // PostNL's printer types: GraphicFile|… (PDF, GIF, JPG) and Zebra|… (ZPL II printers).
        Printertype: { type: 'string', pattern: '^(GraphicFile|Zebra)\\|.+$' },
      },
    },
    Shipments: { type: 'array', minItems: 1, items: shipment },
  },
};

const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(LABELLING_REQUEST_SCHEMA);

/** What the request breaks of the documented models, as readable lines (none when it fits). */
export function labellingProblems(body: unknown): string[] {
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}
