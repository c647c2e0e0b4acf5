/**
 * The fields of DHL's Parcel DE APIs this adapter writes and reads, as their OpenAPI descriptions name them
 * (Shipping API v2 2.1.12, Returns API v1, Location Finder – Unified v1). docs/carriers/dhlpde.md has the sources.
 * Answers are read defensively: every field may be missing or of another type.
 */

import { text } from '../dhlglb/dhlglb.payload.js';

// The same DHL-wide readers as the tracking adapter's: one place decides what counts as a text, object or list.
export { list, record, text } from '../dhlglb/dhlglb.payload.js';

/** `Weight`: the shipment's or a commodity's weight. */
export interface DhlWeight {
  uom: 'g' | 'kg';
  value: number;
}

/** `Value`: an amount in an ISO 4217 currency. */
export interface DhlValue {
  currency: string;
  value: number;
}

/** `Shipper` / `ContactAddress`: a door-step address; `country` is ISO 3166-1 alpha-3. */
export interface DhlContactAddress {
  name1: string;
  name2?: string;
  name3?: string;
  addressStreet: string;
  addressHouse?: string;
  additionalAddressInformation1?: string;
  additionalAddressInformation2?: string;
  postalCode?: string;
  city: string;
  state?: string;
  country: string;
  phone?: string;
  email?: string;
}

/** `Locker`: a German Packstation, addressed by its three-digit number and the recipient's post number. */
export interface DhlLocker {
  name: string;
  lockerID: number;
  postNumber: string;
  city: string;
  postalCode: string;
  country: string;
}

/** `PostOffice`: a German post office or retail outlet (401–999), with the post number or e-mail of the recipient. */
export interface DhlPostOffice {
  name: string;
  retailID: number;
  postNumber?: string;
  email?: string;
  city: string;
  postalCode: string;
  country: string;
}

export type DhlConsignee = DhlContactAddress | DhlLocker | DhlPostOffice;

/** `Commodity`: one line of the customs declaration; value and weight are those of one piece. */
export interface DhlCommodity {
  itemDescription: string;
  countryOfOrigin?: string;
  hsCode?: string;
  packagedQuantity: number;
  itemValue: DhlValue;
  itemWeight: DhlWeight;
}

/** `CustomsDetails` (CN23 / CN22). */
export interface DhlCustoms {
  exportType: string;
  exportDescription?: string;
  invoiceNo?: string;
  shippingConditions?: string;
  shipperCustomsRef?: string;
  consigneeCustomsRef?: string;
  postalCharges: DhlValue;
  items: DhlCommodity[];
}

/** `VAS`: the value-added services this adapter offers through `carrier_metadata`. */
export interface DhlServices {
  preferredNeighbour?: string;
  preferredLocation?: string;
  preferredDay?: string;
  visualCheckOfAge?: 'A16' | 'A18';
  namedPersonOnly?: boolean;
  noNeighbourDelivery?: boolean;
  signedForByRecipient?: boolean;
  additionalInsurance?: DhlValue;
  bulkyGoods?: boolean;
  premium?: boolean;
  closestDropPoint?: boolean;
  endorsement?: 'RETURN' | 'ABANDON';
  parcelOutletRouting?: string;
  postalDeliveryDutyPaid?: boolean;
  dhlRetoure?: { billingNumber: string; refNo?: string; returnAddress?: DhlContactAddress };
}

/** `Shipment`: one parcel of an order. */
export interface DhlShipment {
  product: string;
  billingNumber: string;
  refNo: string;
  costCenter?: string;
  shipDate: string;
  shipper: DhlContactAddress;
  consignee: DhlConsignee;
  details: { weight: DhlWeight; dim?: { uom: 'cm'; length: number; width: number; height: number } };
  services?: DhlServices;
  customs?: DhlCustoms;
}

/** `ShipmentOrderRequest`: the body of `POST /orders`, 1 to 30 shipments. */
export interface DhlOrder {
  profile: string;
  shipments: DhlShipment[];
}

/** `RequestStatus`: `statusCode` is deprecated in favour of `status`; answers carry either. */
export interface DhlStatus {
  title?: unknown;
  status?: unknown;
  statusCode?: unknown;
  detail?: unknown;
}

/** `Document`: a label or paper, Base64 (PDF), text (ZPL) or a download URL. */
export interface DhlDocument {
  b64?: unknown;
  zpl2?: unknown;
  url?: unknown;
  fileFormat?: unknown;
  printFormat?: unknown;
}

/** `ValidationMessageItem`, or (schema errors) an item with `propertyPath` and `message`. */
export interface DhlValidationMessage {
  property?: unknown;
  validationMessage?: unknown;
  validationState?: unknown;
  propertyPath?: unknown;
  message?: unknown;
}

/** `ResponseItem`: one shipment of the answer, in the order of the request. */
export interface DhlItem extends DhlValidationMessage {
  shipmentNo?: unknown;
  returnShipmentNo?: unknown;
  routingCode?: unknown;
  shipmentRefNo?: unknown;
  sstatus?: DhlStatus;
  label?: DhlDocument;
  returnLabel?: DhlDocument;
  customsDoc?: DhlDocument;
  validationMessages?: unknown;
}

/** `LabelDataResponse`: the answer of `POST /orders` and `DELETE /orders`. */
export interface DhlOrderAnswer {
  status?: DhlStatus;
  items?: unknown;
}

/** The body of the Returns API's `POST /orders`: the consumer as shipper, the merchant as the receiver id. */
export interface DhlReturnOrder {
  receiverId: string;
  customerReference?: string;
  shipmentReference?: string;
  shipper: DhlContactAddress;
  itemWeight?: DhlWeight;
  itemValue?: DhlValue;
  customsDetails?: { items: DhlCommodity[] };
}

/** The Returns API's answer. */
export interface DhlReturnAnswer {
  sstatus?: DhlStatus;
  shipmentNo?: unknown;
  internationalShipmentNo?: unknown;
  label?: DhlDocument;
  routingCode?: unknown;
  title?: unknown;
  status?: unknown;
  detail?: unknown;
}

/** One location of the Location Finder – Unified. */
export interface DhlLocation {
  url?: unknown;
  location?: { ids?: unknown; keyword?: unknown; keywordId?: unknown; type?: unknown };
  name?: unknown;
  distance?: unknown;
  place?: { address?: Record<string, unknown>; geo?: { latitude?: unknown; longitude?: unknown } };
  openingHours?: unknown;
  closurePeriods?: unknown;
  serviceTypes?: unknown;
  availableCapacity?: unknown;
}

/** A `RequestStatus`'s code (`status`, else the deprecated `statusCode`), or null. */
export function statusCode(status: DhlStatus | null | undefined): number | null {
  const code = Number(status?.status ?? status?.statusCode);
  return Number.isInteger(code) ? code : null;
}

/** A `RequestStatus` as one line (`title: detail`), or null. */
export function statusText(status: DhlStatus | null | undefined): string | null {
  if (!status) return null;
  const parts = [text(status.title), text(status.detail)].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(': ').slice(0, 300) : null;
}
