import { EU_COUNTRIES } from '../../core/eu-countries.js';
import type { BookedShipment, BookRequest, CarrierFieldError } from '../booking.js';
import type { CarrierSettings } from '../carrier.js';
import { countryOf, type Origins, readAddress } from './dhlpde.address.js';
import { type AnswerContext, documentBytes, fieldFor } from './dhlpde.answer.js';
import { readCommodities } from './dhlpde.customs.js';
import { METADATA_KEYS, readMetadata } from './dhlpde.metadata.js';
import { chooseProduct, prefixed } from './dhlpde.order.js';
import { type DhlReturnAnswer, type DhlReturnOrder, record, statusCode, statusText, text } from './dhlpde.payload.js';
import { RETURN_SENDER_COUNTRIES } from './dhlpde.products.js';

/** `carrier_metadata` options that apply to a return label; the others are about outbound parcels. */
const RETURN_OPTIONS = new Set(['receiver_id', 'label_format']);

/** Prefix of the identifier of a return label: the Returns API has no call to void one. */
export const RETURN_IDENTIFIER_PREFIX = 'retoure:';

export interface ReturnPlan {
  order: DhlReturnOrder;
  origins: Origins;
  problems: CarrierFieldError[];
}

/** The return receiver: `carrier_metadata.receiver_id`, else the configuration's for the sender's country, else its default. */
function receiverId(settings: CarrierSettings, country: string | null, option: string | undefined): string | null {
  const byCountry = settings.return_receiver_ids as Record<string, string> | undefined;
  return option ?? (country ? byCountry?.[country] : undefined) ?? (settings.return_receiver_id as string | undefined) ?? null;
}

/**
 * A return shipment (the consumer in `from_address` sends back to the merchant) as a DHL Retoure label of the
 * Returns API: the consumer is the shipper, the merchant is the receiver id set up in the business customer portal
 * (DHL takes no free receiver address), the booking reference is the shipment reference seen in the portal.
 */
export function planReturn(request: BookRequest, settings: CarrierSettings): ReturnPlan {
  const { options, problems } = readMetadata(request.carrier_metadata);
  for (const key of Object.keys(request.carrier_metadata)) {
    if (METADATA_KEYS.includes(key) && !RETURN_OPTIONS.has(key)) {
      problems.push({ path: ['carrier_metadata', key], message: 'This option applies to outbound DHL parcels, not to return labels.' });
    }
  }
  chooseProduct(request, null, problems);
  if (options.label_format === 'zpl') {
    problems.push({ path: ['carrier_metadata', 'label_format'], message: 'DHL Retoure labels come as PDF only.' });
  }
  if (request.parcels.length > 1) {
    problems.push({ path: ['carrier_metadata', 'parcels'], message: 'A DHL Retoure label is booked for one parcel.' });
  }
  const shipper = readAddress(request.sender, request.sender_field, { phone: true, role: 'shipper', lines: true });
  problems.push(...shipper.problems);
  const origins: Origins = prefixed('shipper', shipper.origins);
  const country = countryOf(request.sender);
  if (country && !RETURN_SENDER_COUNTRIES.has(country)) {
    problems.push({
      path: [request.sender_field, 'country_code'],
      message: 'DHL Retoure labels can be booked from EU countries, GB, CH and NO only.',
    });
  }
  const receiver = receiverId(settings, country, options.receiver_id);
  origins.receiverId = options.receiver_id ? ['carrier_metadata', 'receiver_id'] : ['carrier_reference'];
  if (!receiver) {
    problems.push({
      path: ['carrier_reference'],
      message: 'Return labels need the receiver id of the return recipient (business customer portal): set settings.return_receiver_id.',
    });
  }
  const weight = request.parcels[0]?.weight_grams ?? request.weight_grams;
  origins.itemWeight = request.parcels.length > 1 ? ['carrier_metadata', 'parcels', 0, 'weight'] : ['weight'];
  let customsDetails: DhlReturnOrder['customsDetails'];
  if (country && !EU_COUNTRIES.has(country)) {
    const goods = readCommodities(request, { max: 20 });
    problems.push(...goods.problems);
    Object.assign(origins, prefixed('customsDetails', goods.origins));
    customsDetails = { items: goods.items };
  }
  const order: DhlReturnOrder = {
    receiverId: receiver ?? '',
    customerReference: (request.shipment_reference ?? request.booking_reference).slice(0, 30),
    shipmentReference: request.booking_reference,
    shipper: shipper.value,
    ...(weight && weight > 0 ? { itemWeight: { uom: 'g', value: Math.round(weight) } } : {}),
    ...(request.shipment_value ? { itemValue: { currency: request.shipment_value.currency, value: request.shipment_value.amount } } : {}),
    ...(customsDetails ? { customsDetails } : {}),
  };
  return { order, origins, problems };
}

/**
 * Reads the Returns API's answer: 201 with the shipment number and the PDF label, or a problem detail, whose
 * words name the part of the consumer's address DHL refused.
 */
export function readReturnAnswer(
  httpStatus: number,
  body: unknown,
  plan: ReturnPlan,
):
  | { kind: 'booked'; result: BookedShipment }
  | { kind: 'refused'; message: string; field_errors: CarrierFieldError[] }
  | { kind: 'unreadable'; message: string } {
  const answer = record<DhlReturnAnswer>(body);
  const context: AnswerContext = { origins: plan.origins, parcelPath: (_i, what) => [what], parcels: 1, format: 'pdf', product: 'V07PAK' };
  if (httpStatus >= 400) {
    const why = statusText(answer?.sstatus) ?? statusText({ title: answer?.title, detail: answer?.detail }) ?? `HTTP ${httpStatus}`;
    const detail = text(answer?.detail) ?? text(answer?.sstatus?.detail);
    return {
      kind: 'refused',
      message: `DHL refused the return label (HTTP ${httpStatus}): ${why}`,
      // DHL's problem detail names no property: a receiver id problem is the configuration's, the rest the consumer's address.
      field_errors: detail
        ? [
            {
              path: fieldFor(/receiver/i.test(detail) ? 'receiverId' : 'shipper', detail, 0, context),
              message: `DHL: ${detail.slice(0, 300)}`,
            },
          ]
        : [],
    };
  }
  const number = text(answer?.shipmentNo);
  const label = documentBytes(answer?.label, 'pdf');
  const code = statusCode(answer?.sstatus);
  if (!number || !label || (code !== null && code >= 300)) {
    return { kind: 'unreadable', message: `DHL's return label answer (HTTP ${httpStatus}) has no shipment number or label` };
  }
  const international = text(answer?.internationalShipmentNo);
  return {
    kind: 'booked',
    result: {
      status: 'ok',
      tracking_number: number,
      carrier_shipment_identifier: `${RETURN_IDENTIFIER_PREFIX}${number}`,
      shipping_service: 'V07PAK',
      labels: [{ kind: 'file', ...label, document_type: 'label', parcel_index: 0, tracking_number: number }],
      parcel_tracking_numbers: [number],
      carrier_additional_info: {
        product: 'V07PAK',
        receiver_id: plan.order.receiverId,
        label_format: label.format,
        ...(international ? { international_shipment_number: international } : {}),
        ...(text(answer?.routingCode) ? { routing_code: text(answer?.routingCode) } : {}),
      },
    },
  };
}
