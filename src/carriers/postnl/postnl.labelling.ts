import type { LabelFormat } from '../../documents/label.types.js';
import type { BookRequest, CarrierFieldError } from '../booking.js';
import type { CarrierSettings } from '../carrier.js';
import { productOf, smartReturns } from './postnl.booking.js';
import { type FieldPath, type PostnlAddressFields, type ReadParty, readParty } from './postnl.parties.js';
import { listOf, objectOf, textOf } from './postnl.payload.js';

/**
 * The Labelling API v2_2 (`POST /shipment/v2_2/label`): the request Waybill sends and the answer it reads.
 * Source: PostNL's Labelling documentation and the models of its e-commerce SDK documentation (LabellingRequest,
 * LabellingCustomer, LabellingCustomerMessage, LabellingCustomerShipment, Address, Contact, Dimension, Group,
 * ProductOption, LabellingResponse, LabellingResponseShipment, LabellingLabel, LabellingError), read 2026-11-29.
 */

/** `Message.Printertype` per label format (PostNL's printer types reference). */
export const PRINTER_TYPES: Readonly<Record<'pdf' | 'zpl', string>> = {
  pdf: 'GraphicFile|PDF',
  zpl: 'Zebra|Generic ZPL II 200 dpi',
};

/** Address types: 01 receiver, 02 sender, 09 delivery address (a PostNL point). */
const RECEIVER = '01';
const SENDER = '02';
const POINT = '09';
/** Group type 03: one shipment of several parcels (multi-collo), each with its own barcode. */
const MULTI_COLLO = '03';
/** Smart Returns: product option characteristic 152, option 025 (with product 2285). */
const SMART_RETURNS = { Characteristic: '152', Option: '025' } as const;

/** Who is which party: PostNL's return products go to the sender (02), the merchant, from the receiver (01), the consumer. */
export interface Parties {
  receiver: ReadParty;
  sender: ReadParty;
}

export function partiesOf(request: BookRequest): Parties {
  if (request.type_of_shipment === 'return') {
    return {
      receiver: readParty(request.sender, request.sender_field, 'consumer'),
      sender: readParty(request.recipient, request.recipient_field, 'merchant'),
    };
  }
  return {
    receiver: readParty(request.recipient, request.recipient_field, 'addressee'),
    sender: readParty(request.sender, request.sender_field, 'sender'),
  };
}

/** `dd-MM-yyyy HH:mm:ss` in Dutch time, as `Message.MessageTimeStamp` is written. */
export function dutchTimestamp(now: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Amsterdam',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.day}-${parts.month}-${parts.year} ${parts.hour}:${parts.minute}:${parts.second}`;
}

function pointAddress(request: BookRequest): PostnlAddressFields & { AddressType: string } {
  const point = request.pudo_location!;
  const a = point.address;
  const number = /^(\d{1,5})\s*(.*)$/.exec(a.house_number ?? '');
  return {
    AddressType: POINT,
    CompanyName: (a.address_name || point.pudo_location_id).slice(0, 35),
    Street: a.street_name || a.line1,
    ...(number ? { HouseNr: number[1], ...(number[2] ? { HouseNrExt: number[2] } : {}) } : {}),
    Zipcode: a.postal_code.replace(/\s+/g, '').toUpperCase(),
    City: a.city,
    Countrycode: a.country_code,
  };
}

function contactsOf(party: ReadParty): Array<Record<string, string>> {
  const contact = party.contact;
  return contact.Email || contact.TelNr || contact.SMSNr ? [{ ContactType: '01', ...contact }] : [];
}

/**
 * The label request for `barcodes` (one per parcel, the first the main one): the contract's customer, one
 * `Shipment` per parcel with the receiver (01), the sender (02) and a PostNL point (09) when booked to one,
 * grouped as multi-collo when there are several, our booking reference in `Reference` (Get Status by Reference
 * finds it) and the merchant's order reference in `CustomerOrderNumber`.
 */
export function labelRequest(
  request: BookRequest,
  settings: CarrierSettings,
  format: LabelFormat,
  barcodes: readonly string[],
  now: Date,
): Record<string, unknown> {
  const { receiver, sender } = partiesOf(request);
  const product = productOf(request);
  const contacts = contactsOf(receiver);
  const addresses: object[] = [
    { AddressType: RECEIVER, ...receiver.address },
    { AddressType: SENDER, ...sender.address },
  ];
  if (request.pudo_location) addresses.push(pointAddress(request));
  const customer: Record<string, unknown> = {
    CustomerCode: String(settings.customer_code ?? '').toUpperCase(),
    CustomerNumber: String(settings.customer_number ?? ''),
    ...(typeof settings.collection_location === 'string' ? { CollectionLocation: settings.collection_location } : {}),
  };
  const orderNumber = (request.shipment_reference ?? '').trim().slice(0, 35);
  const remark = (request.description_of_goods ?? '').replace(/\s+/g, ' ').trim().slice(0, 35);
  const shipments = request.parcels.map((parcel, index) => {
    const dims = parcel.dimensions_cm;
    const sides = dims ? [dims.length, dims.width, dims.height].map((cm) => Math.max(1, Math.round(cm * 10))).sort((a, b) => b - a) : null;
    return {
      Addresses: addresses,
      Barcode: barcodes[index],
      ...(contacts.length > 0 ? { Contacts: contacts } : {}),
      ...(request.pudo_location ? { DeliveryAddress: POINT } : {}),
      Dimension: {
        Weight: Math.max(1, Math.round(parcel.weight_grams ?? 1)),
        ...(sides ? { Length: sides[0], Width: sides[1], Height: sides[2] } : {}),
      },
      ...(barcodes.length > 1
        ? { Groups: [{ GroupType: MULTI_COLLO, GroupSequence: index + 1, GroupCount: barcodes.length, MainBarcode: barcodes[0] }] }
        : {}),
      ProductCodeDelivery: product?.code ?? String(request.shipping_service ?? ''),
      ...(request.type_of_shipment === 'return' && smartReturns(request) ? { ProductOptions: [{ ...SMART_RETURNS }] } : {}),
      Reference: request.booking_reference,
      ...(orderNumber ? { CustomerOrderNumber: orderNumber } : {}),
      ...(remark ? { Remark: remark } : {}),
    };
  });
  return {
    Customer: customer,
    Message: {
      MessageID: request.booking_reference.slice(-12),
      MessageTimeStamp: dutchTimestamp(now),
      Printertype: PRINTER_TYPES[format === 'zpl' ? 'zpl' : 'pdf'],
    },
    Shipments: shipments,
  };
}

/** One label file of an answer. */
export interface PostnlLabel {
  bytes: Uint8Array;
  /** `Label`, or customs papers (`CN23`, `CP71`, `CommercialInvoice`). */
  labelType: string;
  format: LabelFormat | null;
}

/** One `ResponseShipment`: a parcel's barcode, its labels, and PostNL's errors and warnings for it. */
export interface PostnlLabelledShipment {
  barcode: string;
  productCode: string | null;
  labels: PostnlLabel[];
  errors: PostnlError[];
  warnings: string[];
}

/** PostNL's error records (Labelling `Error`/`Code`/`Description`, Barcode `ErrorMsg`/`ErrorNumber`). */
export interface PostnlError {
  code: string | null;
  message: string;
}

function outputFormat(outputType: string | null): LabelFormat | null {
  const type = (outputType ?? '').toUpperCase();
  if (type === 'PDF') return 'pdf';
  if (type.includes('ZPL') || type === 'ZEBRA') return 'zpl';
  return null;
}

function base64(text: string | null): Uint8Array | null {
  if (!text || !/^[A-Za-z0-9+/\r\n]+={0,2}\s*$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length > 0 ? new Uint8Array(bytes) : null;
}

/** The error records of any PostNL answer: `Errors` (or `errors`) of the body, or of its response shipments. */
export function errorsOf(body: unknown): PostnlError[] {
  const root = objectOf(body);
  const records = [
    ...listOf(root?.Errors ?? root?.errors),
    ...(Array.isArray(body) ? listOf(body) : []),
    ...listOf(root?.ResponseShipments).flatMap((s) => listOf(s.Errors)),
  ];
  const fault = objectOf(root?.fault) ?? objectOf(root?.Fault);
  const errors = records
    .map((e) => {
      const message = [textOf(e.Error), textOf(e.Description) ?? textOf(e.ErrorMsg) ?? textOf(e.Message)].filter(Boolean).join(': ');
      return { code: textOf(e.Code) ?? textOf(e.ErrorNumber), message };
    })
    .filter((e) => e.message !== '' || e.code !== null);
  if (fault && textOf(fault.faultstring)) errors.push({ code: null, message: textOf(fault.faultstring) as string });
  return errors;
}

export function describeErrors(errors: readonly PostnlError[]): string {
  return errors.map((e) => (e.code ? `${e.code} ${e.message}` : e.message)).join('; ') || 'no reason given';
}

/** A `LabellingResponse` → its shipments; null when it is not one (no shipment with a barcode). */
export function readLabelAnswer(body: unknown): PostnlLabelledShipment[] | null {
  const shipments = listOf(objectOf(body)?.ResponseShipments);
  if (shipments.length === 0) return null;
  const read: PostnlLabelledShipment[] = [];
  for (const shipment of shipments) {
    const barcode = textOf(shipment.Barcode);
    if (!barcode) return null;
    const labels: PostnlLabel[] = [];
    for (const label of listOf(shipment.Labels)) {
      const bytes = base64(textOf(label.Content));
      if (!bytes) continue;
      labels.push({ bytes, labelType: textOf(label.Labeltype) ?? 'Label', format: outputFormat(textOf(label.OutputType)) });
    }
    read.push({
      barcode,
      productCode: textOf(shipment.ProductCodeDelivery),
      labels,
      errors: errorsOf({ Errors: shipment.Errors }),
      warnings: listOf(shipment.Warnings).map((w) => [textOf(w.Code), textOf(w.Description)].filter(Boolean).join(' ')),
    });
  }
  return read;
}

/** Which PostNL field a refusal names, by the words PostNL uses in its descriptions. */
const FIELD_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/zip\s*code|postal\s*code|postcode/i, 'Zipcode'],
  [/house\s*n(?:umbe)?r\s*ext|addition/i, 'HouseNrExt'],
  [/house\s*n(?:umbe)?r|housenumber/i, 'HouseNr'],
  [/street/i, 'Street'],
  [/city|place/i, 'City'],
  [/country/i, 'Countrycode'],
  [/company/i, 'CompanyName'],
  [/first\s*name/i, 'FirstName'],
  [/\bname\b/i, 'Name'],
  [/e-?mail/i, 'Email'],
  [/sms|mobile/i, 'SMSNr'],
  [/phone|tel\s*nr|telnr/i, 'TelNr'],
];

function roleOf(text: string): typeof RECEIVER | typeof SENDER | null {
  if (/receiver|addressee|address\s*type\s*0?1\b|addresstype\s*0?1\b/i.test(text)) return RECEIVER;
  if (/sender|address\s*type\s*0?2\b|addresstype\s*0?2\b/i.test(text)) return SENDER;
  return null;
}

function fieldOf(party: ReadParty, text: string): FieldPath | null {
  for (const [pattern, field] of FIELD_WORDS) {
    if (!pattern.test(text)) continue;
    const origin = party.origins[field] ?? (field === 'Street' ? party.origins.StreetHouseNrExt : undefined);
    if (origin) return origin;
    if (field === 'HouseNr' || field === 'HouseNrExt') return party.origins.Street ?? party.origins.StreetHouseNrExt ?? null;
  }
  return null;
}

/**
 * PostNL's refusals on our fields: an address field when the description names the party (receiver, sender)
 * and the field, the whole address when it names only the party, the weight, the product. Messages keep PostNL's
 * code and words. Refusals naming nothing of ours go on `carrier_reference`.
 */
export function fieldErrorsOf(errors: readonly PostnlError[], request: BookRequest, barcodes: readonly string[]): CarrierFieldError[] {
  const parties = partiesOf(request);
  const found: CarrierFieldError[] = [];
  const ownParcel = request.parcels.length === 1 && request.parcels[0].weight_grams === request.weight_grams;
  for (const error of errors) {
    const text = error.message;
    const message = `PostNL: ${error.code ? `${error.code} ` : ''}${text}`;
    const role = roleOf(text);
    let path: FieldPath | null = null;
    if (role) {
      const party = role === RECEIVER ? parties.receiver : parties.sender;
      path = fieldOf(party, text) ?? party.origins[''];
    } else if (/weight/i.test(text)) {
      const index = Math.max(
        0,
        barcodes.findIndex((b) => text.includes(b)),
      );
      path = ownParcel ? ['weight'] : ['carrier_metadata', 'parcels', index, 'weight'];
    } else if (/product\s*code|productcode/i.test(text)) {
      path = ['shipping_service'];
    } else if (/delivery\s*address|address\s*type\s*0?9/i.test(text) && request.pudo_location) {
      path = ['pudo_location_uuid'];
    }
    // A refusal naming nothing of ours stays with the configuration, beside those placed on our fields.
    found.push({ path: path ?? ['carrier_reference'], message });
  }
  return found;
}
