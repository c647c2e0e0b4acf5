import { countryAlpha2 } from '../sdk/places.js';
import { isObject, objects, type Ship24Courier, type Ship24CouriersBody, text } from './ship24.payload.js';

/** What the adapter knows of one Ship24 courier code. */
export interface CourierInfo {
  name: string;
  /** The courier's main country (ISO 3166-1 alpha-2), or null. */
  country: string | null;
  /** A postal operator (Ship24's `isPost`). */
  post: boolean;
}

/**
 * Ship24 courier codes of carriers Waybill has an adapter of its own for, with the name and country Ship24 gives
 * them. Only codes Ship24's documentation shows are listed: `us-post` (USPS) and `fr-post` (La Poste), in the
 * `GET /couriers` example and the tracking examples of the OpenAPI document (read 2026-11-28). Ship24 publishes
 * its courier list only through `GET /couriers` and a dashboard CSV, so the codes of the other carriers Waybill
 * tracks directly (Royal Mail, InPost, DHL, UPS, …) are not known from documentation and are not guessed: those
 * couriers are named from `GET /couriers`, with no Waybill carrier id.
 */
export const SHIP24_COURIERS: Readonly<Record<string, CourierInfo & { carrier_id: string }>> = {
  'us-post': { carrier_id: 'uspsus', name: 'USPS', country: 'US', post: true },
  'fr-post': { carrier_id: 'lapost', name: 'La Poste', country: 'FR', post: true },
};

/** The couriers the mapper can name: Ship24's list when the adapter has read it, and the table above. */
export interface CourierBook {
  find(code: string): CourierInfo | null;
  /** Ship24's list has been read: a code it lacks has no better name than itself. */
  readonly listed: boolean;
}

/** Only the table above: what the mapper knows before `GET /couriers` was read. */
export const TABLE_ONLY: CourierBook = {
  find: (code) => SHIP24_COURIERS[code] ?? null,
  listed: false,
};

/** A book over Ship24's list (read with `readCouriers`), the table filling its gaps. */
export function courierBook(list: ReadonlyMap<string, CourierInfo>): CourierBook {
  return {
    find: (code) => list.get(code) ?? SHIP24_COURIERS[code] ?? null,
    listed: true,
  };
}

/** The answer of `GET /public/v1/couriers` → code → courier (deprecated codes included: old trackers use them); null when unreadable. */
export function readCouriers(body: unknown): Map<string, CourierInfo> | null {
  const data = isObject(body) ? (body as Ship24CouriersBody).data : undefined;
  const list = isObject(data) ? data.couriers : undefined;
  if (!Array.isArray(list)) return null;
  const couriers = new Map<string, CourierInfo>();
  for (const courier of objects<Ship24Courier>(list)) {
    const code = text(courier.courierCode);
    const name = text(courier.courierName);
    if (!code || !name || code.length > 100) continue;
    couriers.set(code, { name: name.slice(0, 150), country: countryAlpha2(text(courier.countryCode)), post: courier.isPost === true });
  }
  return couriers;
}

/** The Waybill carrier id of a Ship24 courier code, or null. */
export function carrierIdOf(code: string): string | null {
  return SHIP24_COURIERS[code]?.carrier_id ?? null;
}
