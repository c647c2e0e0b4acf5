import type { LabelFormat } from '../../documents/label.types.js';
import type { BookedLabel, BookedShipment, CarrierFieldError } from '../booking.js';
import type { FieldPath, Origins } from './dhlpde.address.js';
import {
  type DhlDocument,
  type DhlItem,
  type DhlOrderAnswer,
  type DhlStatus,
  type DhlValidationMessage,
  list,
  record,
  statusCode,
  statusText,
  text,
} from './dhlpde.payload.js';

/** How DHL's answer maps back to our request: the origins of its fields and the paths of each parcel. */
export interface AnswerContext {
  origins: Origins;
  parcelPath(index: number, what: 'weight' | 'dimensions'): FieldPath;
  parcels: number;
  format: LabelFormat;
  product: string;
}

/**
 * What an order answer means: all parcels booked; refused (with the numbers DHL created anyway, which must be
 * voided: a partly booked order is undone whole); or an answer that cannot be read, after which DHL may have booked.
 */
export type OrderOutcome =
  | { kind: 'booked'; result: BookedShipment }
  | { kind: 'refused'; message: string; field_errors: CarrierFieldError[]; created: string[] }
  /** `listed`: every parcel's item was there (so `created` is all DHL booked). */
  | { kind: 'unreadable'; message: string; created: string[]; listed: boolean };

/** Words in DHL's address messages and the address field they are about, when DHL names only `shipper` or `consignee`. */
const ADDRESS_WORDS: Array<[RegExp, string]> = [
  [/house ?number|hausnummer/i, 'addressHouse'],
  [/post ?number|postnummer/i, 'postNumber'],
  [/post ?code|postal ?code|postleitzahl|\bplz\b/i, 'postalCode'],
  [/street|stra(ss|ß)e/i, 'addressStreet'],
  [/\bcity\b|\bort\b/i, 'city'],
  [/country|\bland\b/i, 'country'],
  [/e-?mail/i, 'email'],
  [/\bname\b/i, 'name1'],
];

/**
 * Our field for a DHL property path: `shipments[0].consignee.postalCode`, `consignee` (with the message telling
 * which part), `dimension.weight`, `customs.items[1].hsCode`. The longest known prefix wins; `carrier_reference`
 * (the configuration) when nothing of ours corresponds.
 */
export function fieldFor(property: string, message: string, shipment: number, context: AnswerContext): FieldPath {
  const indexed = /^shipments\[(\d+)\]\.?(.*)$/.exec(property);
  const parcel = indexed ? Number(indexed[1]) : shipment;
  const path = (indexed ? indexed[2] : property).replace(/^\./, '');
  if (/^(details|dimension)\.weight|^weight$/.test(path)) return context.parcelPath(parcel, 'weight');
  if (/^details\.dim|^dimension/.test(path)) return context.parcelPath(parcel, 'dimensions');
  const { origins } = context;
  if ((path === 'shipper' || path === 'consignee') && origins[path]) {
    for (const [words, part] of ADDRESS_WORDS) {
      const found = origins[`${path}.${part}`];
      if (words.test(message) && found) return found;
    }
    return origins[path];
  }
  for (let candidate = path; candidate !== ''; candidate = candidate.replace(/(\.[^.]*|\[\d+\])$/, '')) {
    if (origins[candidate]) return origins[candidate];
    if (!/[.[]/.test(candidate)) break;
  }
  return ['carrier_reference'];
}

function messagesOf(item: DhlItem): DhlValidationMessage[] {
  const own = list(item.validationMessages)
    .map((m) => record<DhlValidationMessage>(m))
    .filter((m) => m !== null);
  // A schema error lists itself as an item with `propertyPath` and `message`.
  return item.propertyPath !== undefined || item.message !== undefined ? [item, ...own] : own;
}

/** DHL's validation messages of one shipment as field errors on our fields. */
export function fieldErrors(item: DhlItem, shipment: number, context: AnswerContext): CarrierFieldError[] {
  return messagesOf(item).flatMap((m) => {
    const message = text(m.validationMessage) ?? text(m.message);
    if (!message) return [];
    const property = text(m.property) ?? text(m.propertyPath) ?? '';
    return [{ path: fieldFor(property, message, shipment, context), message: `DHL: ${message.slice(0, 300)}` }];
  });
}

function isOk(status: DhlStatus | undefined): boolean {
  const code = statusCode(status);
  return code === 200 || code === 201;
}

/** A document's bytes and format: Base64 (PDF), or ZPL as text. */
export function documentBytes(document: DhlDocument | undefined, fallback: LabelFormat): { bytes: Uint8Array; format: LabelFormat } | null {
  const doc = record<DhlDocument>(document);
  if (!doc) return null;
  const declared = text(doc.fileFormat)?.toUpperCase();
  const zpl = text(doc.zpl2);
  if (typeof doc.zpl2 === 'string' && zpl) return { bytes: Buffer.from(doc.zpl2, 'utf8'), format: 'zpl' };
  if (typeof doc.b64 === 'string' && doc.b64.length > 0) {
    const bytes = Buffer.from(doc.b64, 'base64');
    if (bytes.length === 0) return null;
    const format: LabelFormat =
      declared === 'ZPL2' ? 'zpl' : declared === 'PDF' ? 'pdf' : bytes.subarray(0, 5).toString('latin1') === '%PDF-' ? 'pdf' : fallback;
    return { bytes, format };
  }
  return null;
}

function labelsOf(item: DhlItem, index: number, context: AnswerContext): BookedLabel[] | null {
  const shipmentNo = text(item.shipmentNo) as string;
  const label = documentBytes(item.label, context.format);
  if (!label) return null;
  const labels: BookedLabel[] = [{ kind: 'file', ...label, document_type: 'label', parcel_index: index, tracking_number: shipmentNo }];
  const returnNo = text(item.returnShipmentNo);
  const returnLabel = documentBytes(item.returnLabel, context.format);
  if (returnLabel) {
    labels.push({
      kind: 'file',
      ...returnLabel,
      document_type: 'label',
      parcel_index: index,
      ...(returnNo ? { tracking_number: returnNo } : {}),
    });
  }
  const customs = documentBytes(item.customsDoc, 'pdf');
  if (customs)
    labels.push({ kind: 'file', ...customs, document_type: 'customs_declaration', parcel_index: index, tracking_number: shipmentNo });
  return labels;
}

/** Reads the answer of `POST /orders` (HTTP 200, 207 or 4xx): one item per shipment, in the order sent. */
export function readOrderAnswer(httpStatus: number, body: unknown, context: AnswerContext): OrderOutcome {
  const answer = record<DhlOrderAnswer>(body);
  const items = list(answer?.items).map((item) => record<DhlItem>(item) ?? {});
  const created = items.filter((item) => isOk(item.sstatus) && text(item.shipmentNo)).map((item) => text(item.shipmentNo) as string);
  const overall = statusText(answer?.status);
  if (httpStatus >= 400) {
    const field_errors = items.flatMap((item, index) => fieldErrors(item, index, context));
    return {
      kind: 'refused',
      message: `DHL refused the booking (HTTP ${httpStatus})${overall ? `: ${overall}` : ''}`,
      field_errors,
      created,
    };
  }
  if (!answer || items.length !== context.parcels) {
    return {
      kind: 'unreadable',
      message: `DHL's answer (HTTP ${httpStatus}) lists ${items.length} of ${context.parcels} shipments`,
      created,
      listed: false,
    };
  }
  const failed = items.map((item, index) => ({ item, index })).filter(({ item }) => !isOk(item.sstatus) || !text(item.shipmentNo));
  if (failed.length > 0) {
    const field_errors = failed.flatMap(({ item, index }) => fieldErrors(item, index, context));
    const why = failed.map(({ item }) => statusText(item.sstatus)).find(Boolean) ?? overall;
    return {
      kind: 'refused',
      message: `DHL refused ${failed.length} of ${items.length} parcels${why ? `: ${why}` : ''}`,
      field_errors,
      created,
    };
  }
  const labels: BookedLabel[] = [];
  for (const [index, item] of items.entries()) {
    const own = labelsOf(item, index, context);
    if (!own) return { kind: 'unreadable', message: `DHL booked parcel ${index + 1} but sent no readable label`, created, listed: true };
    labels.push(...own);
  }
  const numbers = items.map((item) => text(item.shipmentNo) as string);
  const returnNumbers = items.map((item) => text(item.returnShipmentNo)).filter((n): n is string => n !== null);
  const warnings = items.flatMap((item) => messagesOf(item).map((m) => text(m.validationMessage) ?? text(m.message))).filter(Boolean);
  return {
    kind: 'booked',
    result: {
      status: 'ok',
      tracking_number: numbers[0],
      carrier_shipment_identifier: numbers.join(','),
      shipping_service: context.product,
      labels,
      parcel_tracking_numbers: numbers,
      carrier_additional_info: {
        product: context.product,
        label_format: labels[0].format,
        ...(returnNumbers.length > 0 ? { return_tracking_numbers: returnNumbers } : {}),
        ...(warnings.length > 0 ? { warnings } : {}),
      },
    },
  };
}

/** Reads the answer of `DELETE /orders`: every shipment voided, or DHL's reason for the first it kept. */
export function readCancelAnswer(httpStatus: number, body: unknown): { status: 'ok' } | { status: 'error'; message: string } {
  const answer = record<DhlOrderAnswer>(body);
  const items = list(answer?.items).map((item) => record<DhlItem>(item) ?? {});
  const kept = items.find((item) => !isOk(item.sstatus));
  if (httpStatus < 300 && items.length > 0 && !kept) return { status: 'ok' };
  const why = (kept && statusText(kept.sstatus)) ?? statusText(answer?.status) ?? `HTTP ${httpStatus}`;
  const number = kept ? text(kept.shipmentNo) : null;
  return { status: 'error', message: `DHL did not void the shipment${number ? ` ${number}` : ''}: ${why}` };
}

/**
 * Reads the answer of `POST /orders?validate=true`: DHL checked every shipment without creating any, one status
 * and its validation messages per shipment (warnings when it would book, reasons when it would not).
 */
export function readValidationAnswer(
  httpStatus: number,
  body: unknown,
  context: AnswerContext,
): { status: 'ok'; warnings: string[] } | { status: 'refused'; message: string; field_errors: CarrierFieldError[] } | null {
  const answer = record<DhlOrderAnswer>(body);
  const items = list(answer?.items).map((item) => record<DhlItem>(item) ?? {});
  if (httpStatus < 300 && items.length === context.parcels && items.every((item) => isOk(item.sstatus))) {
    const warnings = items.flatMap((item) => messagesOf(item).map((m) => text(m.validationMessage) ?? text(m.message)));
    return { status: 'ok', warnings: [...new Set(warnings.filter((w): w is string => w !== null))] };
  }
  if (httpStatus < 300 && items.length !== context.parcels) return null;
  const field_errors = items.flatMap((item, index) => (isOk(item.sstatus) ? [] : fieldErrors(item, index, context)));
  const why = statusText(answer?.status);
  return { status: 'refused', message: `DHL would refuse the booking (HTTP ${httpStatus})${why ? `: ${why}` : ''}`, field_errors };
}
