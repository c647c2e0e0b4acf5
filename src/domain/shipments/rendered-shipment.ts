import type { ShapeVersion } from './shipment.presenter.js';

/**
 * A shipment in one shape, as the reader renders it for an answer: `json`, every field of the shape but those
 * made anew for each answer, and those fields' values. `json` is the rendering the reader keeps (see
 * `ShipmentJsonCache`), shared with other answers: read it, never write to it.
 */
export interface RenderedShipment {
  readonly version: ShapeVersion;
  /** One JSON object (UTF-8): the shipment in its shape without `pod_url`. */
  readonly json: Uint8Array;
  /** The v5.2 shape's last field, `pod_url`: a proof-of-delivery link signed for this answer (null in v5). */
  readonly podUrl: string | null;
}

/** One page of the shipment list (v5 shape), newest first. */
export interface ShipmentPage {
  shipments: RenderedShipment[];
  next_page: string | null;
}

const utf8 = new TextDecoder();

/** The shipment as an object with every field of its shape, `pod_url` last in v5.2 (console pages, webhook bodies). */
export function shipmentObject(shipment: RenderedShipment): Record<string, unknown> {
  const object = JSON.parse(utf8.decode(shipment.json)) as Record<string, unknown>;
  if (shipment.version === 'v5.2') object.pod_url = shipment.podUrl;
  return object;
}
