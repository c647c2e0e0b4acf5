import type { TrackResult } from '../carrier.js';
import type { PushUpdate } from '../push.js';
import { type CodeLookup, errorsOf, mapActivity, type upsMessages } from './upsglb.mapper.js';
import type { UpsActivity, UpsPackage } from './upsglb.payload.js';
import { proofOfDelivery } from './upsglb.pod.js';
import { expectedDelivery } from './upsglb.times.js';

/**
 * UPS Track Alert (`UPSTrackAlert.yaml`, github.com/UPS-API/api-documentation, MIT): the events UPS pushes
 * (`TrackingEventRequest`, one event per request) and the answers to a subscription call. Pure: no I/O, no
 * clock, never a throw; every value is checked before use.
 */

/** The fields of a pushed `TrackingEventRequest` that are read. */
export interface UpsTrackingEvent {
  trackingNumber?: string;
  /** `YYYYMMDD`, local to the activity. */
  localActivityDate?: string;
  /** `HHMMSS`, local to the activity. */
  localActivityTime?: string;
  gmtActivityDate?: string;
  gmtActivityTime?: string;
  /** `(-/+)HH.MM`, e.g. `-04.00`. */
  gmtOffset?: string;
  activityLocation?: { city?: string; stateProvince?: string; postalCode?: string; country?: string };
  /** `type` (D, I, M, MV, U, X), `code` (two characters, e.g. `FS`), `descriptionCode` (three digits, e.g. `011`). */
  activityStatus?: { type?: string; code?: string; description?: string; descriptionCode?: string | number };
  scheduledDeliveryDate?: string;
  actualDeliveryDate?: string;
  actualDeliveryTime?: string;
  deliveryStartTime?: string;
  deliveryEndTime?: string;
  /** Base64 of the delivery photo (enhanced subscriptions). */
  deliveryPhoto?: string;
  /** Who signed (enhanced subscriptions). */
  receivedBy?: string;
}

/** Events per pushed body: UPS posts one; a list is read too, within reason. */
const MAX_EVENTS = 500;

type Json = Record<string, unknown>;

function object(value: unknown): Json | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** `-04.00` (Track Alert's way) → `-04:00` (the Track API's, which the time helpers read). */
function offsetOf(value: unknown): string | undefined {
  const raw = text(value);
  return raw?.replace(/^([+-]\d{1,2})\.(\d{2})$/, '$1:$2');
}

/** A pushed event in the Track API's activity shape, so that one mapper (codes, places, times) serves both. */
export function activityOfPush(event: UpsTrackingEvent): UpsActivity {
  const location = object(event.activityLocation) ?? {};
  const status = object(event.activityStatus) ?? {};
  return {
    date: text(event.localActivityDate),
    time: text(event.localActivityTime),
    gmtOffset: offsetOf(event.gmtOffset),
    gmtDate: text(event.gmtActivityDate),
    gmtTime: text(event.gmtActivityTime),
    location: {
      address: {
        city: text(location.city),
        stateProvince: text(location.stateProvince),
        postalCode: text(location.postalCode),
        country: text(location.country),
      },
    },
    status: {
      type: text(status.type),
      code: text(status.code),
      // The three-digit code is the Track API's `statusCode` (`021` out for delivery, `011` delivered).
      statusCode: text(status.descriptionCode),
      description: text(status.description),
    },
  };
}

/** The pushed delivery estimate in the Track API's package shape: the scheduled day, a window when both ends are given. */
function packageOfPush(event: UpsTrackingEvent): UpsPackage {
  const dates: Array<{ type: string; date: string }> = [];
  const scheduled = text(event.scheduledDeliveryDate);
  const delivered = text(event.actualDeliveryDate);
  if (scheduled) dates.push({ type: 'SDD', date: scheduled });
  if (delivered) dates.push({ type: 'DEL', date: delivered });
  const start = text(event.deliveryStartTime);
  const end = text(event.deliveryEndTime);
  const type = start && end ? 'EDW' : end ? 'CMT' : undefined;
  return { deliveryDate: dates, deliveryTime: { type, startTime: start, endTime: end } };
}

/** One pushed event as the result a poll would give (one event, the delivery estimate, the delivery photo). */
export function mapPushedEvent(event: UpsTrackingEvent, trackingNumber: string, lookup?: CodeLookup): TrackResult {
  const mapped = mapActivity(activityOfPush(event), lookup);
  const result: TrackResult = { status: 'ok', tracking_number: trackingNumber, events: mapped ? [mapped] : [] };
  const expected = expectedDelivery(packageOfPush(event));
  if (expected) result.expected_delivery = expected;
  const photo = text(event.deliveryPhoto);
  const proof = photo ? proofOfDelivery(trackingNumber, { deliveryPhoto: { photo }, receivedBy: text(event.receivedBy) }) : undefined;
  if (proof) result.proof_of_delivery = proof;
  return result;
}

/** A pushed body (one `TrackingEventRequest`, or a list of them) → updates; anything else is refused with a reason. */
export function parseTrackAlert(body: unknown, lookup?: CodeLookup): { ok: true; updates: PushUpdate[] } | { ok: false; message: string } {
  const items = Array.isArray(body) ? body : [body];
  if (items.length === 0 || items.length > MAX_EVENTS) return { ok: false, message: `Send 1 to ${MAX_EVENTS} tracking events per push.` };
  const updates: PushUpdate[] = [];
  for (const [index, item] of items.entries()) {
    const event = object(item);
    const where = Array.isArray(body) ? `event ${index}` : 'the event';
    if (!event) return { ok: false, message: `${where} is not a UPS TrackingEventRequest object.` };
    const number = text(event.trackingNumber)?.replace(/\s+/g, '').toUpperCase();
    if (!number || number.length > 40) return { ok: false, message: `${where} has no trackingNumber.` };
    if (!object(event.activityStatus)) return { ok: false, message: `${where} has no activityStatus.` };
    updates.push({ tracking_number: number, result: mapPushedEvent(event as UpsTrackingEvent, number, lookup) });
  }
  return { ok: true, updates };
}

/** A subscription call's answer (200, or 400 with the numbers UPS would not take), read. */
export interface SubscriptionAnswer {
  valid: string[];
  invalid: string[];
  /** `CODE: message` pairs of a 400. */
  errors: ReturnType<typeof upsMessages>;
}

/** The lists of `PackageSubscriptionSuccessResponse` / `PackageSubscriptionErrorResponse`; null when the body is neither. */
export function readSubscriptionAnswer(body: unknown): SubscriptionAnswer | null {
  const root = object(body);
  if (!root) return null;
  const numbers = (value: unknown) =>
    Array.isArray(value) ? value.map((n) => text(n)?.replace(/\s+/g, '').toUpperCase()).filter((n): n is string => Boolean(n)) : null;
  const valid = numbers(root.validTrackingNumbers);
  const invalid = numbers(root.invalidTrackingNumbers);
  const errors = errorsOf(root);
  if (valid === null && invalid === null && errors.length === 0) return null;
  return { valid: valid ?? [], invalid: invalid ?? [], errors };
}
