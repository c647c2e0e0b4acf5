import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import {
  DETAILS_HEAD,
  keptDetailsAnswer,
  type RenderedShipment,
  type ShipmentPage,
  shipmentParts,
} from '../domain/shipments/rendered-shipment.js';
import { AnswerBuffers } from './answer-buffers.js';

/**
 * Shipments written into answers. The reader keeps each shipment's rendering (UTF-8 JSON, see
 * `RenderedShipment.json`) with the proof-of-delivery link, the v5.2 shape's last field, left null: a link is
 * signed anew for every answer. The details of a v5.2 shipment without one are answered with the kept bytes
 * themselves; otherwise the envelope, the rendering and the link are joined into one buffer, without re-encoding
 * the rendering, and that buffer is used again for a later answer once this one is written (`AnswerBuffers`).
 */

export const JSON_TYPE = 'application/json; charset=utf-8';
const DATA_HEAD = Buffer.from(DETAILS_HEAD);
const LIST_HEAD = Buffer.from(`${DETAILS_HEAD}[`);
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from('}');
/** Joined answers' buffers, used again once written (a list page is ~117 KB). */
const buffers = new AnswerBuffers();

/** `{"api_response":"200","data":<shipment>}` */
export function sendShipment(reply: FastifyReply, shipment: RenderedShipment): FastifyReply {
  const kept = keptDetailsAnswer(shipment);
  if (kept) return reply.type(JSON_TYPE).send(kept);
  return reply.type(JSON_TYPE).send(buffers.join(reply.raw, [DATA_HEAD, ...shipmentParts(shipment), CLOSE]));
}

/** `{"api_response":"200","data":[<shipment>,…],"next_page":…}` */
export function sendShipmentPage(reply: FastifyReply, page: ShipmentPage): FastifyReply {
  return reply.type(JSON_TYPE).send(shipmentPageAnswer(reply.raw, page));
}

/** The whole answer to a list page, in a buffer lent to `res` until it is written (`AnswerBuffers`). */
export function shipmentPageAnswer(res: ServerResponse, page: ShipmentPage): Buffer {
  return buffers.join(res, pageParts(page));
}

/** The whole answer to a list page, in a buffer of its own that nothing writes into again (`KeptPageAnswers`). */
export function shipmentPageBytes(page: ShipmentPage): Buffer {
  return Buffer.concat(pageParts(page));
}

function pageParts(page: ShipmentPage): Uint8Array[] {
  const parts: Uint8Array[] = [LIST_HEAD];
  for (const [i, shipment] of page.shipments.entries()) {
    if (i > 0) parts.push(COMMA);
    parts.push(...shipmentParts(shipment));
  }
  parts.push(Buffer.from(`],"next_page":${JSON.stringify(page.next_page)}}`));
  return parts;
}
