import { Ajv, type ValidateFunction } from 'ajv';

/**
 * The ShipIT requests the local GLS accepts, as JSON Schema, written here from GLS's documentation (not vendored:
 * GLS publishes no licence for it): the ShipIT REST pages "Processing shipments" (`ShipmentRequestData` and its
 * parts, the request samples) and "ParcelShop search", the "Webservices Fault Responses Samples" for the limits
 * ("Value is too long. Maximum is 40", e-mail 80), and the ShipIT Farm API reference of the GLS developer portal for
 * the enumerations (`Product`, `Category`, `TemplateSet`, `LabelFormat`). Field names follow the REST samples
 * (`ZIPCode`, `eMail`), which GLS's own validated requests use. GLS refuses unknown fields, so every object is
 * closed. Only the parts Waybill may send are described in detail; the rest of ShipIT's services are listed by name.
 */

const text = (maxLength = 40) => ({ type: 'string', minLength: 1, maxLength });

const address = {
  type: 'object',
  additionalProperties: false,
  required: ['Name1', 'CountryCode', 'City', 'Street', 'ZIPCode'],
  properties: {
    Name1: text(),
    Name2: text(),
    Name3: text(),
    CountryCode: { type: 'string', pattern: '^[A-Z]{2}$' },
    Province: text(),
    ZIPCode: text(10),
    City: text(),
    Street: text(),
    StreetNumber: text(),
    ContactPerson: text(),
    FixedLinePhonenumber: text(),
    MobilePhoneNumber: text(),
    eMail: text(80),
  },
};

const references = { type: 'array', items: text(), minItems: 1 };

const shipmentService = {
  type: 'object',
  minProperties: 1,
  maxProperties: 1,
  additionalProperties: false,
  properties: {
    Service: { type: 'object', required: ['ServiceName'], properties: { ServiceName: { type: 'string' } } },
    ShopDelivery: {
      type: 'object',
      additionalProperties: false,
      required: ['ServiceName', 'ParcelShopID'],
      properties: { ServiceName: { const: 'service_shopdelivery' }, ParcelShopID: text(50) },
    },
    ShopReturn: {
      type: 'object',
      additionalProperties: false,
      required: ['ServiceName'],
      properties: { ServiceName: { const: 'service_shopreturn' }, NumberOfLabels: { type: 'integer', minimum: 1 } },
    },
    Intercompany: { type: 'object' },
    Exchange: { type: 'object' },
    DeliveryAtWork: { type: 'object' },
    Deposit: { type: 'object' },
    IdentPin: { type: 'object' },
    Ident: { type: 'object' },
    PickAndShip: { type: 'object' },
    PickAndReturn: { type: 'object' },
  },
};

export const SHIPMENT_REQUEST = {
  type: 'object',
  additionalProperties: false,
  required: ['Shipment', 'PrintingOptions'],
  properties: {
    Shipment: {
      type: 'object',
      additionalProperties: false,
      required: ['Product', 'Consignee', 'Shipper', 'ShipmentUnit'],
      properties: {
        ShipmentReference: references,
        ShippingDate: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
        IncotermCode: { type: 'string', pattern: '^\\d{2}$' },
        Identifier: text(),
        Middleware: text(),
        Product: { enum: ['PARCEL', 'EXPRESS', 'FREIGHT'] },
        ExpressAltDeliveryAllowed: { type: 'boolean' },
        Consignee: {
          type: 'object',
          additionalProperties: false,
          required: ['Address'],
          properties: {
            ConsigneeID: text(),
            CostCenter: text(),
            Category: { enum: ['BUSINESS', 'PRIVATE'] },
            Address: address,
          },
        },
        Shipper: {
          type: 'object',
          additionalProperties: false,
          required: ['ContactID'],
          properties: { ContactID: text(), AlternativeShipperAddress: address, Address: address },
        },
        ShipmentUnit: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['Weight'],
            properties: {
              ShipmentUnitReference: references,
              PartnerParcelNumber: text(),
              Weight: { type: 'number', exclusiveMinimum: 0, maximum: 99.99, multipleOf: 0.01 },
              Note1: text(),
              Note2: text(),
              Service: { type: 'array' },
            },
          },
        },
        Service: { type: 'array', items: shipmentService },
        Return: { type: 'object' },
      },
    },
    PrintingOptions: {
      type: 'object',
      additionalProperties: false,
      properties: {
        ReturnLabels: {
          type: 'object',
          additionalProperties: false,
          required: ['TemplateSet', 'LabelFormat'],
          properties: {
            TemplateSet: {
              enum: [
                'NONE',
                'D_200',
                'PF_4_I',
                'PF_4_I_200',
                'PF_4_I_300',
                'PF_8_D_200',
                'T_200_BF',
                'T_300_BF',
                'ZPL_200',
                'ZPL_200_TRACKID_EAN_128',
                'ZPL_200_TRACKID_CODE_39',
                'ZPL_200_REFNO_EAN_128',
                'ZPL_200_REFNO_CODE_39',
                'ZPL_300',
                'ZPL_300_TRACKID_EAN_128',
                'ZPL_300_TRACKID_CODE_39',
                'ZPL_300_REFNO_EAN_128',
                'ZPL_300_REFNO_CODE_39',
              ],
            },
            LabelFormat: { enum: ['PDF', 'ZEBRA', 'INTERMEC', 'DATAMAX', 'TOSHIBA', 'PNG'] },
          },
        },
        UseDefault: { type: 'string' },
        DefinePrinter: { type: 'object' },
      },
    },
    CustomContent: { type: 'object' },
    ReturnOptions: { type: 'object' },
  },
};

/** `ValidateShipmentRequestData`: the `Shipment` of a createParcels request alone. */
export const VALIDATE_REQUEST = {
  type: 'object',
  additionalProperties: false,
  required: ['Shipment'],
  properties: { Shipment: SHIPMENT_REQUEST.properties.Shipment },
};

/** `ParcelShopSearchDistance`: around a point (numbers as strings). */
export const SEARCH_BY_DISTANCE = {
  type: 'object',
  additionalProperties: false,
  required: ['Latitude', 'Longitude', 'Distance'],
  properties: {
    Latitude: { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' },
    Longitude: { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' },
    Distance: { type: 'string', pattern: '^\\d+$' },
    MaxNumberOfShops: { type: 'string', pattern: '^\\d+$' },
  },
};

/** `ParcelShopSearchLocation`: near an address, at least its country. */
export const SEARCH_BY_ADDRESS = {
  type: 'object',
  additionalProperties: false,
  required: ['CountryCode'],
  properties: {
    Street: text(),
    StreetNumber: text(),
    CountryCode: { type: 'string', pattern: '^[A-Z]{2}$' },
    Province: text(),
    City: text(),
    ZIPCode: text(10),
    Distance: { type: 'string', pattern: '^\\d+$' },
    MaxNumberOfShops: { type: 'string', pattern: '^\\d+$' },
  },
};

const ajv = new Ajv({ allErrors: true, strict: false, multipleOfPrecision: 9 });
const validators = new Map<object, ValidateFunction>();

/** What is wrong with `body` against one of the schemas above, as `path message` lines; none when valid. */
export function schemaProblems(schema: object, body: unknown): string[] {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'invalid'}`);
}
