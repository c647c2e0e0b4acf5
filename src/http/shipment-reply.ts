import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { RenderedShipment, ShipmentPage } from '../domain/shipments/rendered-shipment.js';
import type { ShipmentSerializers } from '../domain/shipments/shipment.reader.js';
import { ShipmentV5, ShipmentV52 } from '../schemas/shipment-output.schemas.js';
import { compileSerializer } from './serialization.js';

/**
 * Shipments written into answers. The reader keeps each shipment's rendering (UTF-8 JSON, see docs/performance-history.md)
 * without `pod_url`, the v5.2 shape's last field, signed anew for every answer; here the envelope, the rendering
 * and that field are joined into one buffer, without re-encoding the rendering.
 */

const JSON_TYPE = 'application/json; charset=utf-8';
const DATA_HEAD = Buffer.from('{"api_response":"200","data":');
const LIST_HEAD = Buffer.from('{"api_response":"200","data":[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from('}');
const NO_POD_URL = Buffer.from(',"pod_url":null}');

/** The serializers the reader renders with: the shipment response schemas without `pod_url`. */
export function shipmentSerializers(): ShipmentSerializers {
  return { v5: compileSerializer(ShipmentV5), 'v5.2': compileSerializer(Type.Omit(ShipmentV52, ['pod_url'])) };
}

/** The shipment's JSON as parts, in order: the rendering, then (v5.2) `pod_url` as the object's last member. */
function pushShipment(parts: Uint8Array[], shipment: RenderedShipment): void {
  if (shipment.version === 'v5') {
    parts.push(shipment.json);
    return;
  }
  // The rendering is one JSON object: everything before its closing brace, then the member and the brace.
  const podUrl = shipment.podUrl === null ? NO_POD_URL : Buffer.from(`,"pod_url":${JSON.stringify(shipment.podUrl)}}`);
  parts.push(shipment.json.subarray(0, -1), podUrl);
}

/** `{"api_response":"200","data":<shipment>}` */
export function sendShipment(reply: FastifyReply, shipment: RenderedShipment): FastifyReply {
  const parts: Uint8Array[] = [DATA_HEAD];
  pushShipment(parts, shipment);
  parts.push(CLOSE);
  return reply.type(JSON_TYPE).send(Buffer.concat(parts));
}

/** `{"api_response":"200","data":[<shipment>,…],"next_page":…}` */
export function sendShipmentPage(reply: FastifyReply, page: ShipmentPage): FastifyReply {
  const parts: Uint8Array[] = [LIST_HEAD];
  for (const [i, shipment] of page.shipments.entries()) {
    if (i > 0) parts.push(COMMA);
    pushShipment(parts, shipment);
  }
  parts.push(Buffer.from(`],"next_page":${JSON.stringify(page.next_page)}}`));
  return reply.type(JSON_TYPE).send(Buffer.concat(parts));
}
