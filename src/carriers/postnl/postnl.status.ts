import { listOf, objectOf, textOf } from './postnl.payload.js';

/**
 * What booking reads of the Shippingstatus API (Get Status by Barcode or by Reference, `CurrentStatus`): which
 * parcels PostNL knows and where each stands. Pure.
 */

export interface PostnlParcelStatus {
  barcode: string;
  mainBarcode: string | null;
  /** The parcel's place in a multi-collo shipment (`ShipmentCounter`), when given. */
  counter: number | null;
  statusCode: string | null;
  description: string | null;
}

/**
 * Status codes of a parcel PostNL has not received: 1 pre-alerted (only its data is known), 13 pre-alerted and not
 * yet accepted, 14 pre-alerted but never handed over (closed by PostNL), 19 refused for processing, 99 not
 * applicable (T&T status codes; postnl.codes.ts). A label in one of these may be released.
 */
export const WITHDRAWABLE_STATUSES: ReadonlySet<string> = new Set(['1', '13', '14', '19', '99']);

/**
 * The parcels of a status answer; an empty list when PostNL answers with warnings only (a barcode or reference it
 * does not know); null when the body is no status answer.
 */
export function readStatusAnswer(body: unknown): PostnlParcelStatus[] | null {
  const root = objectOf(body);
  if (!root || !('CurrentStatus' in root || 'CompleteStatus' in root || 'Warnings' in root)) return null;
  const holder = objectOf(root.CurrentStatus) ?? objectOf(root.CompleteStatus);
  const parcels: PostnlParcelStatus[] = [];
  for (const shipment of listOf(holder?.Shipment)) {
    const barcode = textOf(shipment.Barcode);
    if (!barcode) continue;
    const status = listOf(shipment.Status)[0];
    const counter = Number(textOf(shipment.ShipmentCounter));
    parcels.push({
      barcode: barcode.toUpperCase(),
      mainBarcode: textOf(shipment.MainBarcode)?.toUpperCase() ?? null,
      counter: Number.isInteger(counter) && counter > 0 ? counter : null,
      statusCode: textOf(status?.StatusCode),
      description: textOf(status?.StatusDescription),
    });
  }
  return parcels;
}
