import { hash } from 'node:crypto';
import { SHIP24_ERRORS } from './ship24.codes.js';
import { isObject, objects, type Ship24BulkBody, type Ship24BulkItem, text } from './ship24.payload.js';

/**
 * Ship24 trackers as Waybill keeps them: one per tracking number and API key, named by a `clientTrackerId` made
 * from the number, so that the number's tracker is found again by that id (`searchBy=clientTrackerId`) after a
 * retry or a restart, and creating it twice reuses it (Ship24 reuses a tracker whose `clientTrackerId` and other
 * fields match, without counting it against the quota). Pure: no I/O.
 */

/** Ship24 accepts 1 to 100 trackers per `POST /trackers/bulk`. */
export const BULK_MAX = 100;

/** A number as Ship24 keeps it (it answers tracking numbers upper-cased) and as Waybill compares numbers. */
export function normalizeNumber(trackingNumber: string): string {
  return trackingNumber.replace(/\s+/g, '').toUpperCase();
}

/** `wb-` and the first 32 hex digits of the SHA-256 of the normalized number: 35 characters, Ship24 allows 100. */
export function clientTrackerId(trackingNumber: string): string {
  return `wb-${hash('sha256', normalizeNumber(trackingNumber), 'hex').slice(0, 32)}`;
}

/** The body of `POST /public/v1/trackers/bulk`: only the number and its id, so that the same body is sent every time. */
export function bulkBody(numbers: readonly string[]): Array<{ trackingNumber: string; clientTrackerId: string }> {
  return numbers.map((number) => ({ trackingNumber: normalizeNumber(number), clientTrackerId: clientTrackerId(number) }));
}

/** What Ship24 said of one number in a bulk creation. */
export type Registration =
  | { status: 'created' }
  | { status: 'existing' }
  | { status: 'refused'; code: string; message: string; retryable: boolean };

/** Item codes that will not change however often the same tracker is asked for. */
const FINAL_REFUSALS: ReadonlySet<string> = new Set([
  'validation_error',
  'tracker_conflict',
  'shipping_date_outdated',
  'missing_mandatory_field',
]);

/**
 * A bulk-creation answer → what became of each number asked (by its `clientTrackerId`, else its number, else its
 * position); numbers the answer does not mention are left out. Null when the body is not Ship24's bulk envelope
 * or holds no items (a whole-request error: see `errorCodes`).
 */
export function readBulk(body: unknown, numbers: readonly string[]): Map<string, Registration> | null {
  if (!isObject(body)) return null;
  const envelope = body as Ship24BulkBody;
  if (!Array.isArray(envelope.data)) return null;
  const items = objects<Ship24BulkItem>(envelope.data);
  const byId = new Map(numbers.map((number) => [clientTrackerId(number), number]));
  const byNumber = new Map(numbers.map((number) => [normalizeNumber(number), number]));
  const outcomes = new Map<string, Registration>();
  items.forEach((item, index) => {
    const input = isObject(item.inputData) ? item.inputData : {};
    const tracker = isObject(item.tracker) ? item.tracker : {};
    const id = text(input.clientTrackerId) ?? text(tracker.clientTrackerId);
    const asked = text(input.trackingNumber) ?? text(tracker.trackingNumber);
    const number =
      (id ? byId.get(id) : undefined) ??
      (asked ? byNumber.get(normalizeNumber(asked)) : undefined) ??
      (items.length === numbers.length ? numbers[index] : undefined);
    if (number === undefined || outcomes.has(number)) return;
    const status = text(item.itemStatus);
    if (status === 'created' || status === 'existing') {
      outcomes.set(number, { status });
      return;
    }
    const [first] = objects<{ code?: unknown; message?: unknown }>(item.errors);
    const code = text(first?.code) ?? 'error';
    const message = (text(first?.message) ?? '').slice(0, 200);
    outcomes.set(number, { status: 'refused', code, message, retryable: !FINAL_REFUSALS.has(code) });
  });
  return outcomes;
}

/** The error codes of a Ship24 error body: `errors[].code`, and the bulk envelope's `error.code`. */
export function errorCodes(body: unknown): string[] {
  if (!isObject(body)) return [];
  const codes = objects<{ code?: unknown }>(body.errors)
    .map((error) => text(error.code))
    .filter((code): code is string => code !== null);
  const bulk = isObject(body.error) ? text(body.error.code) : null;
  return bulk ? [...codes, bulk] : codes;
}

/** The first error message of a Ship24 error body, or ''. */
export function errorMessage(body: unknown): string {
  if (!isObject(body)) return '';
  const [first] = objects<{ code?: unknown; message?: unknown }>(body.errors);
  const bulk = isObject(body.error) ? body.error : null;
  return (text(first?.message) ?? text(first?.code) ?? text(bulk?.message) ?? text(bulk?.code) ?? '').slice(0, 200);
}

/** Ship24's answer that the plan's trackers for the billing period are spent. */
export function isQuotaAnswer(body: unknown): boolean {
  return errorCodes(body).includes(SHIP24_ERRORS.quotaLimitReached);
}

/** Ship24's answer that no tracker has this id. */
export function isUnknownTracker(body: unknown): boolean {
  return errorCodes(body).includes(SHIP24_ERRORS.trackerNotFound);
}
