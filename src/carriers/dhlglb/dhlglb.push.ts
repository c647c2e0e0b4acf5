import type { PushUpdate } from '../push.js';
import { type DhlMapOptions, mapShipmentsBody } from './dhlglb.mapper.js';
import { list, record, text } from './dhlglb.payload.js';

/**
 * DHL Shipment Tracking – Unified – Push: the subscription request and the bodies DHL posts to the hook.
 * Pure: no I/O, no clock, never a throw. docs/carriers/dhlglb.md names the sources and what is unverified.
 */

/** The event groups a subscription asks for: all of them (DHL's collections list these five). */
export const DHL_PUSH_EVENTS = ['Pre-Transit', 'Transit', 'Delivered', 'Failure', 'Unknown'] as const;

/** The header DHL is told to send the hook token in, and the token's form, so that the default bearer check reads it. */
export const DHL_HOOK_HEADER = 'Authorization';

/** Shipments per pushed body that are read, within reason. */
const MAX_SHIPMENTS = 500;

/** The body of `POST /tracking/push/v1/subscription` for tracking numbers. */
export function subscriptionBody(numbers: readonly string[], hook: { url: string; token: string }, service: string | null): object {
  return {
    hook: {
      uri: hook.url,
      authentication: { type: 'ApiKeyAuthentication', header: DHL_HOOK_HEADER, token: `Bearer ${hook.token}` },
    },
    format: 'Default',
    type: 'Shipment',
    ...(service ? { service } : {}),
    events: [...DHL_PUSH_EVENTS],
    shipmentIDs: [...numbers],
  };
}

function normalize(number: string): string {
  return number.replace(/\s+/g, '').toUpperCase();
}

/**
 * A pushed body → one update per shipment, each mapped as a tracking answer of that shipment alone.
 * DHL posts the tracking API's structure (`shipments`, each with its `status` and `events`), with a `scope`:
 * `subscription.push` carries shipments; other scopes (a subscription's validation or readiness notice) carry
 * none and are acknowledged with no update. A body that is neither is refused with a reason.
 */
export function parseDhlPush(
  body: unknown,
  options: DhlMapOptions = {},
): { ok: true; updates: PushUpdate[] } | { ok: false; message: string } {
  const root = record<{ scope?: unknown; shipments?: unknown }>(body);
  if (!root) return { ok: false, message: 'The body is not a DHL push object.' };
  const scope = text(root.scope);
  if (root.shipments === undefined && scope && scope !== 'subscription.push') return { ok: true, updates: [] };
  if (!Array.isArray(root.shipments)) return { ok: false, message: 'The body has no "shipments" list.' };
  const shipments = list(root.shipments);
  if (shipments.length > MAX_SHIPMENTS) return { ok: false, message: `Send at most ${MAX_SHIPMENTS} shipments per push.` };
  const updates: PushUpdate[] = [];
  for (const [index, item] of shipments.entries()) {
    const shipment = record<{ id?: unknown }>(item);
    const id = shipment ? text(shipment.id) : null;
    if (!shipment || !id || id.length > 40) return { ok: false, message: `shipment ${index} has no id.` };
    const number = normalize(id);
    updates.push({ tracking_number: number, result: mapShipmentsBody(number, { shipments: [shipment] }, options) });
  }
  return { ok: true, updates };
}
