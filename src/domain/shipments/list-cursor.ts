import { SHIPMENT_STATUSES } from '../../core/shipment-status.js';
import type { ShipmentListFilter } from '../../db/repositories/shipments.repository.js';
import type { ListQuery } from '../../schemas/shipment-input.schemas.js';
import { FieldErrorCollector, ValidationError } from '../errors.js';
import { parseFilterTime } from './filter-time.js';

/** Where the next page of a list starts (before this row id), its size, and the filters of its first page. */
export interface Cursor {
  before: number;
  limit: number;
  filter: ShipmentListFilter;
}

/** The list filters of a query, times as UTC instants; a time that cannot be read is a 4030 on its parameter. */
export function filterFrom(query: ListQuery): ShipmentListFilter {
  const errors = new FieldErrorCollector();
  const instant = (field: keyof ListQuery): string | undefined => {
    const value = query[field] as string | undefined;
    if (value === undefined) return undefined;
    const parsed = parseFilterTime(value);
    if (!parsed.ok) {
      errors.add([field], 'Enter an ISO 8601 date or date-time.');
      return undefined;
    }
    // A date alone as an upper bound covers that whole day.
    if (parsed.time.precision === 'date' && field.endsWith('_to')) return `${parsed.time.utc.slice(0, 10)}T23:59:59.999Z`;
    return parsed.time.utc;
  };
  const filter: ShipmentListFilter = {
    createdFrom: instant('created_date_from'),
    createdTo: instant('created_date_to'),
    updatedFrom: instant('updated_date_from'),
    updatedTo: instant('updated_date_to'),
    shipmentId: query.shipment_id,
    orderId: query.order_id,
    trackingNumber: query.tracking_number,
    carrierReference: query.carrier_reference,
    status: query.status,
    tag: query.tag,
  };
  errors.throwIfAny();
  return filter;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

export function decodeCursor(text: string): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor;
    if (
      Number.isSafeInteger(cursor.before) &&
      cursor.before >= 1 &&
      Number.isInteger(cursor.limit) &&
      cursor.limit >= 1 &&
      cursor.limit <= 100 &&
      isListFilter(cursor.filter)
    ) {
      return cursor;
    }
  } catch {
    // fall through to the validation error
  }
  throw ValidationError.at(['next_page'], 'Invalid page cursor: send back the next_page value of the previous response.');
}

/**
 * The cursor, when the query's filters are none or the cursor's own: a filter sent beside a cursor issued for
 * others would be ignored, and the pages would hold what it was meant to leave out.
 */
export function refuseOtherFilters(cursor: Cursor, query: ListQuery): Cursor {
  const given = filterFrom(query);
  const keys = Object.keys(given) as Array<keyof ShipmentListFilter>;
  if (keys.every((key) => given[key] === undefined) || keys.every((key) => given[key] === cursor.filter[key])) return cursor;
  throw ValidationError.at(
    ['next_page'],
    'This next_page was issued for other filters: send it alone, or with the filters of the first page.',
  );
}

const FILTER_TIMES = new Set(['createdFrom', 'createdTo', 'updatedFrom', 'updatedTo']);
/** Each text filter, and the longest value its query parameter takes (ShipmentListQuery). */
const FILTER_TEXTS = new Map([
  ['shipmentId', 50],
  ['orderId', 50],
  ['trackingNumber', 100],
  ['carrierReference', 50],
  ['tag', 100],
]);
const STATUSES = new Set<string>(SHIPMENT_STATUSES);
/** The instants a filter holds, as `filterFrom` writes them (UTC, milliseconds). */
const FILTER_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Whether a cursor's filter is one `filterFrom` can have made: an object of its keys only, each a string (an
 * instant for the times, a status for the status, text the query would take for the others). A cursor is the
 * client's to send back, so an edited one is refused like a garbled one.
 */
function isListFilter(value: unknown): value is ShipmentListFilter {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(([key, field]) => {
    if (field === undefined) return true;
    if (typeof field !== 'string') return false;
    if (FILTER_TIMES.has(key)) return FILTER_INSTANT.test(field);
    if (key === 'status') return STATUSES.has(field);
    const longest = FILTER_TEXTS.get(key);
    // Counted in characters, as the query's maxLength is (an emoji is one, in two UTF-16 units).
    return longest !== undefined && [...field].length <= longest && !field.includes('\u0000');
  });
}
