import type { LabelFormat } from '../../documents/label.types.js';
import type { BookRequest } from '../booking.js';
import type { CarrierSettings } from '../carrier.js';
import { goodsDescription, quantityOf, unitValue, wantsEtd } from './fdxglb.booking.js';
import { base64Bytes, type Json, many, object, text } from './fdxglb.json.js';
import {
  countryOf,
  fedexDimensions,
  fedexWeight,
  needsCustoms,
  party,
  postalOf,
  STATE_COUNTRIES,
  usesImperialUnits,
} from './fdxglb.parties.js';

/**
 * Our booking request → FedEx's Create Shipment request (`POST /ship/v1/shipments`), its answer → what we keep,
 * the Validate Shipment request (`POST /ship/v1/shipments/packages/validate`) and the Cancel Shipment request
 * (`PUT /ship/v1/shipments/cancel`). Pure. Field names and values: the Ship API's
 * OpenAPI document (Shipment-Resource); docs/carriers/fdxglb.md says which field comes from where.
 */

export const SHIP_PATH = '/ship/v1/shipments';
export const CANCEL_PATH = '/ship/v1/shipments/cancel';
export const VALIDATE_PATH = '/ship/v1/shipments/packages/validate';

/** FedEx's `imageType` and label stock for each of our formats (FedEx renders all three itself). */
const IMAGE_TYPES: Record<LabelFormat, { imageType: string; labelStockType: string }> = {
  pdf: { imageType: 'PDF', labelStockType: 'PAPER_4X6' },
  png: { imageType: 'PNG', labelStockType: 'PAPER_4X6' },
  zpl: { imageType: 'ZPLII', labelStockType: 'STOCK_4X6' },
};

function clip(value: string, max: number): string {
  return value.length > max ? value.slice(0, max) : value;
}

function currencyOf(request: BookRequest): string {
  return String(
    request.line_items.find((item) => item.currency_code)?.currency_code ?? request.shipment_value?.currency ?? '',
  ).toUpperCase();
}

/** Grams of a line: its own weight, else its product's weight times the quantity; null when neither is given in g, kg, lb or oz. */
function lineGrams(item: Readonly<Record<string, unknown>>): number | null {
  const units: Record<string, number> = { g: 1, kg: 1000, lb: 453.59237, lbs: 453.59237, oz: 28.349523125 };
  const of = (value: unknown, unit: unknown) =>
    typeof value === 'number' && value > 0 && units[String(unit ?? 'g').toLowerCase()]
      ? value * units[String(unit ?? 'g').toLowerCase()]
      : null;
  return (
    of(item.line_item_weight, item.line_item_weight_unit) ??
    ((of(item.product_weight, item.product_weight_unit) ?? 0) * quantityOf(item) || null)
  );
}

/** `customsClearanceDetail`: the commodities from our line items, duties payment and the invoice's terms. */
function customsClearance(request: BookRequest, account: string, imperial: boolean): Json {
  const currency = currencyOf(request);
  const option = (key: string) => request.carrier_metadata[key] as string | undefined;
  const isReturn = request.type_of_shipment === 'return';
  let total = 0;
  const commodities = request.line_items.map((item, index) => {
    const quantity = quantityOf(item);
    const unit = unitValue(item) ?? 0;
    total += unit * quantity;
    const grams = lineGrams(item);
    return {
      description: clip(
        String(item.customs_description ?? item.product_name ?? '')
          .replace(/\s+/g, ' ')
          .trim(),
        450,
      ),
      ...(item.product_name ? { name: clip(String(item.product_name), 450) } : {}),
      countryOfManufacture: String(item.product_origin_country_code ?? '').toUpperCase(),
      harmonizedCode: String(item.hs_code ?? '').replace(/[\s.]/g, ''),
      quantity,
      quantityUnits: 'PCS',
      numberOfPieces: quantity,
      unitPrice: { amount: round2(unit), currency },
      customsValue: { amount: round2(unit * quantity), currency },
      ...(grams ? { weight: { units: imperial ? 'LB' : 'KG', value: fedexWeight(grams, imperial) } } : {}),
      partNumber: clip(String(item.product_reference ?? item.product_id ?? index + 1), 35),
    };
  });
  const payer = option('duties_payment') ?? 'SENDER';
  return {
    dutiesPayment:
      payer === 'SENDER'
        ? { paymentType: 'SENDER', payor: { responsibleParty: { accountNumber: { value: account } } } }
        : { paymentType: payer },
    commercialInvoice: {
      shipmentPurpose: option('shipment_purpose') ?? (isReturn ? 'REPAIR_AND_RETURN' : 'SOLD'),
      ...(option('terms_of_sale') ? { termsOfSale: option('terms_of_sale') } : {}),
      ...(request.shipment_reference?.trim()
        ? { customerReferences: [{ customerReferenceType: 'INVOICE_NUMBER', value: clip(request.shipment_reference.trim(), 30) }] }
        : {}),
    },
    totalCustomsValue: { amount: round2(total), currency },
    commodities,
  };
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** `holdAtLocationDetail` of a booking to a FedEx location found by the Locations API. */
function holdAtLocation(request: BookRequest): Json | null {
  const point = request.pudo_location;
  if (!point) return null;
  const a = point.address;
  const type = typeof point.additional_info?.fedex_location_type === 'string' ? point.additional_info.fedex_location_type : null;
  const state = a.state_or_province?.trim().toUpperCase();
  const lines = [a.line1, a.line2, a.line3].filter((l): l is string => Boolean(l?.trim())).map((l) => clip(l.trim(), 35));
  return {
    locationId: point.pudo_location_id,
    ...(type && HAL_LOCATION_TYPES.includes(type) ? { locationType: type } : {}),
    locationContactAndAddress: {
      contact: { companyName: clip(a.address_name || 'FedEx', 35) },
      address: {
        streetLines: lines,
        city: clip(a.city, 35),
        ...(state && STATE_COUNTRIES.includes(a.country_code.toUpperCase()) ? { stateOrProvinceCode: state } : {}),
        ...(a.postal_code ? { postalCode: postalOf({ postal_code: a.postal_code }) } : {}),
        countryCode: a.country_code.toUpperCase(),
      },
    },
  };
}

/** `holdAtLocationDetail.locationType` values (the Ship API's enum). */
export const HAL_LOCATION_TYPES = [
  'FEDEX_AUTHORIZED_SHIP_CENTER',
  'FEDEX_OFFICE',
  'FEDEX_SELF_SERVICE_LOCATION',
  'FEDEX_STAFFED',
  'RETAIL_ALLICANCE_LOCATION',
  'FEDEX_GROUND_TERMINAL',
  'FEDEX_ONSITE',
];

/**
 * The Create Shipment body: one `requestedPackageLineItems` entry per parcel (FedEx answers one label per piece
 * and a master tracking number), labels returned in the answer (`labelResponseOptions: LABEL`) in the format
 * asked, our booking reference as each package's customer reference, the commercial invoice across a customs
 * border (with ETD when asked), a print return label for returns and Hold at Location for a booking to a point.
 */
export function shipRequest(request: BookRequest, settings: CarrierSettings, format: LabelFormat): Json {
  const account = String(settings.account_number ?? '');
  const sender = request.sender ?? {};
  const recipient = request.recipient ?? {};
  const isReturn = request.type_of_shipment === 'return';
  const imperial = usesImperialUnits(countryOf(sender));
  const customs = needsCustoms(request);
  const etd = customs && wantsEtd(request, settings);
  const point = holdAtLocation(request);
  const goods = goodsDescription(request);
  const residential = !isReturn && !point && !(typeof recipient.company === 'string' && recipient.company.trim());
  const specialServices = [
    ...(isReturn ? ['RETURN_SHIPMENT'] : []),
    ...(point ? ['HOLD_AT_LOCATION'] : []),
    ...(etd ? ['ELECTRONIC_TRADE_DOCUMENTS'] : []),
  ];
  const weights = request.parcels.map((parcel) => fedexWeight(parcel.weight_grams ?? 0, imperial));
  const references = [
    { customerReferenceType: 'CUSTOMER_REFERENCE', value: request.booking_reference },
    ...(request.shipment_reference?.trim() && !customs
      ? [{ customerReferenceType: 'INVOICE_NUMBER', value: clip(request.shipment_reference.trim(), 30) }]
      : []),
  ];
  return {
    labelResponseOptions: 'LABEL',
    accountNumber: { value: account },
    requestedShipment: {
      shipDatestamp: request.date,
      shipper: party(sender),
      recipients: [party(recipient, { residential })],
      pickupType: typeof settings.pickup_type === 'string' ? settings.pickup_type : 'DROPOFF_AT_FEDEX_LOCATION',
      serviceType: request.shipping_service ?? '',
      packagingType: 'YOUR_PACKAGING',
      totalWeight: Math.round(weights.reduce((sum, w) => sum + w, 0) * 10) / 10,
      shippingChargesPayment: { paymentType: 'SENDER', payor: { responsibleParty: { accountNumber: { value: account } } } },
      ...(specialServices.length > 0
        ? {
            shipmentSpecialServices: {
              specialServiceTypes: specialServices,
              ...(isReturn ? { returnShipmentDetail: { returnType: 'PRINT_RETURN_LABEL' } } : {}),
              ...(point ? { holdAtLocationDetail: point } : {}),
              ...(etd ? { etdDetail: { requestedDocumentTypes: ['COMMERCIAL_INVOICE'] } } : {}),
            },
          }
        : {}),
      ...(customs ? { customsClearanceDetail: customsClearance(request, account, imperial) } : {}),
      labelSpecification: { ...IMAGE_TYPES[format], labelFormatType: 'COMMON2D' },
      ...(customs
        ? {
            shippingDocumentSpecification: {
              shippingDocumentTypes: ['COMMERCIAL_INVOICE'],
              commercialInvoiceDetail: { documentFormat: { stockType: 'PAPER_LETTER', docType: 'PDF' } },
            },
          }
        : {}),
      totalPackageCount: request.parcels.length,
      requestedPackageLineItems: request.parcels.map((parcel, index) => {
        const sides = parcel.dimensions_cm ? fedexDimensions(parcel.dimensions_cm, imperial) : null;
        return {
          sequenceNumber: index + 1,
          groupPackageCount: 1,
          weight: { units: imperial ? 'LB' : 'KG', value: weights[index] },
          ...(sides ? { dimensions: { length: sides[0], width: sides[1], height: sides[2], units: imperial ? 'IN' : 'CM' } } : {}),
          ...(goods ? { itemDescription: clip(goods, 50) } : {}),
          customerReferences: references,
        };
      }),
    },
  };
}

/**
 * The Validate Shipment body: the Create Shipment request without what FedEx's validation does not take
 * (`labelResponseOptions`, `totalPackageCount`) and with the first parcel only ("This is shipment level validation
 * hence supports validation for single piece shipment only").
 */
export function validateRequest(request: BookRequest, settings: CarrierSettings, format: LabelFormat): Json {
  const ship = shipRequest({ ...request, parcels: request.parcels.slice(0, 1) }, settings, format);
  const { totalPackageCount: _count, ...requestedShipment } = ship.requestedShipment as Json;
  return { accountNumber: ship.accountNumber, requestedShipment };
}

/** The warnings of a Validate Shipment answer (HTTP 200: `output.alerts` of type WARNING); null when unreadable. */
export function readValidateResponse(body: unknown): string[] | null {
  const output = object(object(body)?.output);
  if (!output) return null;
  return many(output.alerts)
    .filter((alert) => text(alert.alertType)?.toUpperCase() === 'WARNING')
    .map((alert) => [text(alert.code), text(alert.message)].filter(Boolean).join(': '))
    .filter(Boolean);
}

/** The Cancel Shipment body: every package of the shipment whose (master) tracking number is given. */
export function cancelRequest(trackingNumber: string, account: string): Json {
  return { accountNumber: { value: account }, trackingNumber, deletionControl: 'DELETE_ALL_PACKAGES' };
}

/** A label or document as FedEx sends it: its `docType` (`PDF`, `PNG`, `ZPLII`), its content type and bytes. */
export interface FedexDocument {
  docType: string;
  contentType: string;
  bytes: Buffer;
}

export interface FedexPiece {
  trackingNumber: string;
  label: FedexDocument | null;
}

/** What we keep of a Create Shipment answer. */
export interface FedexShipResult {
  masterTrackingNumber: string;
  serviceType: string | null;
  pieces: FedexPiece[];
  documents: FedexDocument[];
  alerts: string[];
}

function documentOf(value: Json): FedexDocument | null {
  const bytes = base64Bytes(value.encodedLabel);
  const docType = text(value.docType)?.toUpperCase();
  return bytes && docType ? { docType, contentType: text(value.contentType)?.toUpperCase() ?? 'LABEL', bytes } : null;
}

function alertsOf(value: unknown): string[] {
  return many(value)
    .map((alert) => [text(alert.code), text(alert.message)].filter(Boolean).join(': '))
    .filter(Boolean);
}

/** A Create Shipment answer (HTTP 200) → master number, pieces with their labels, shipment documents; null when unreadable. */
export function readShipResponse(body: unknown): FedexShipResult | null {
  const output = object(object(body)?.output);
  const shipment = many(output?.transactionShipments)[0];
  if (!shipment) return null;
  const pieces = many(shipment.pieceResponses)
    .map((piece) => {
      const docs = many(piece.packageDocuments);
      const label = docs.find((doc) => (text(doc.contentType) ?? 'LABEL').toUpperCase() === 'LABEL') ?? docs[0];
      return { trackingNumber: text(piece.trackingNumber) ?? '', label: label ? documentOf(label) : null };
    })
    .filter((piece) => piece.trackingNumber !== '');
  if (pieces.length === 0) return null;
  const master =
    text(shipment.masterTrackingNumber) ?? text(many(shipment.pieceResponses)[0]?.masterTrackingNumber) ?? pieces[0].trackingNumber;
  const documents = many(shipment.shipmentDocuments)
    .map(documentOf)
    .filter((doc): doc is FedexDocument => doc !== null);
  return {
    masterTrackingNumber: master,
    serviceType: text(shipment.serviceType),
    pieces,
    documents,
    alerts: [...alertsOf(output?.alerts), ...alertsOf(shipment.alerts)],
  };
}

/** A Cancel Shipment answer (HTTP 200) → whether FedEx cancelled it and its message; null when unreadable. */
export function readCancelResponse(body: unknown): { cancelled: boolean; message: string | null } | null {
  const output = object(object(body)?.output);
  if (!output || typeof output.cancelledShipment !== 'boolean') return null;
  return { cancelled: output.cancelledShipment, message: text(output.message) ?? (alertsOf(output.alerts)[0] || null) };
}
